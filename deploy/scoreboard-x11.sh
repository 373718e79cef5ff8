#!/bin/sh
# X without a window manager: `startx /opt/svoya-scoreboard/bin/scoreboard-x11.sh` after `install-kiosk.sh` (which
# copies this script there), or as ExecStart of a unit through xinit. Blanking and power saving off, no cursor, then
# the board fullscreen on the displays in the config (/etc/svoya-scoreboard/scoreboard.toml).
xset s off -dpms s noblank
command -v unclutter >/dev/null && unclutter -idle 0 &
export SDL_VIDEO_ALLOW_SCREENSAVER=0 PYGAME_HIDE_SUPPORT_PROMPT=1
export SCOREBOARD_CONFIG="${SCOREBOARD_CONFIG:-/etc/svoya-scoreboard/scoreboard.toml}"
export XDG_DATA_HOME="${XDG_DATA_HOME:-/var/lib}" XDG_CACHE_HOME="${XDG_CACHE_HOME:-/var/cache}"
exec /opt/svoya-scoreboard/bin/scoreboard run
