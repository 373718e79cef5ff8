"""The board's display: scenes drawn from the snapshot, screens, visual themes, the board loop and the demo."""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
