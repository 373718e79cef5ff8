#!/bin/sh
# Install the board as a kiosk from its wheel — no git checkout on the board PC (docs/KIOSK.md). As root:
#   sh install-kiosk.sh svoya_scoreboard-0.1.0-py3-none-any.whl     (or a requirement: svoya-scoreboard==0.1.0)
# The wheel carries this script: `unzip -p WHEEL scoreboard/shipped/deploy/install-kiosk.sh > install-kiosk.sh`.
# Makes the user `scoreboard`, a venv in /opt/svoya-scoreboard holding the wheel, the config
# /etc/svoya-scoreboard/scoreboard.toml (written once: the displays seen, a new passcode, resume = true; readable
# by root and the board's user only) and the systemd unit, enabled. Run again with a newer wheel to upgrade: the
# config and the journals stay.
set -eu
WHEEL=${1:?"usage: sh install-kiosk.sh WHEEL-OR-REQUIREMENT"}
PREFIX=/opt/svoya-scoreboard
CONFIG_DIR=/etc/svoya-scoreboard
STATE_DIR=/var/lib/svoya-scoreboard
USER_NAME=scoreboard

groups=""
for group in video input render audio dialout; do
  getent group "$group" >/dev/null && groups="$groups${groups:+,}$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin \
    ${groups:+--groups "$groups"} "$USER_NAME"
fi

python3 -m venv "$PREFIX"
"$PREFIX/bin/pip" install --quiet --upgrade "$WHEEL"

install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$STATE_DIR" "$STATE_DIR/packs" /var/cache/svoya-scoreboard
install -d -m 0750 -o root -g "$USER_NAME" "$CONFIG_DIR" "$CONFIG_DIR/themes" "$CONFIG_DIR/regulations"
if [ ! -e "$CONFIG_DIR/scoreboard.toml" ]; then
  SCOREBOARD_CONFIG="$CONFIG_DIR/scoreboard.toml" XDG_DATA_HOME=/var/lib "$PREFIX/bin/scoreboard" config init
  sed -i 's/^resume = false$/resume = true/' "$CONFIG_DIR/scoreboard.toml"
  chgrp "$USER_NAME" "$CONFIG_DIR/scoreboard.toml"
  chmod 0640 "$CONFIG_DIR/scoreboard.toml"
fi

DEPLOY=$("$PREFIX/bin/python" -c 'from scoreboard.folders import shipped; print(shipped("deploy"))')
install -m 0644 "$DEPLOY/scoreboard.service" /etc/systemd/system/scoreboard.service
install -m 0755 "$DEPLOY/scoreboard-x11.sh" "$PREFIX/bin/scoreboard-x11.sh"
systemctl daemon-reload
systemctl enable scoreboard.service
echo "installed $("$PREFIX/bin/scoreboard" --version) for user $USER_NAME; config $CONFIG_DIR/scoreboard.toml"
echo "check it: sudo -u $USER_NAME SCOREBOARD_CONFIG=$CONFIG_DIR/scoreboard.toml XDG_DATA_HOME=/var/lib $PREFIX/bin/scoreboard doctor"
echo "then: systemctl start scoreboard; journalctl -u scoreboard -f"
