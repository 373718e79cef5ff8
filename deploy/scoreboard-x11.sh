#!/bin/sh
# X without a window manager: `startx /opt/scoreboard/deploy/scoreboard-x11.sh` (or as ExecStart of a unit through
# xinit). Blanking and power saving off, no cursor, then the board fullscreen on the displays in the config.
xset s off -dpms s noblank
command -v unclutter >/dev/null && unclutter -idle 0 &
export SDL_VIDEO_ALLOW_SCREENSAVER=0 PYGAME_HIDE_SUPPORT_PROMPT=1
cd /opt/scoreboard && exec .venv/bin/scoreboard run --config config/scoreboard.toml
