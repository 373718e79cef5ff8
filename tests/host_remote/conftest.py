"""SDL dummy drivers for every remote test: pygame runs headless, no window, no sound card."""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402  (after the environment is set)
import pytest  # noqa: E402


@pytest.fixture
def pygame_display():
    was = pygame.display.get_init()
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1024, 600))
    yield
    pygame.display.quit()
    if was:             # as it found it: the next test in this worker may draw without a window of its own
        pygame.display.init()
