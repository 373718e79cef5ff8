"""The question's media on screen: pack pictures and sounds (`pack`), video and sound on the engine's media clock
(`video`, `decoder`), and the game's sound cues (`sounds`)."""
