"""How a frame is painted: the canvas scenes draw on, fitted text, cached tiles, the reveal fade, QR codes."""
