#!/usr/bin/env bash
# Registers an afdesk installed from source with the desktop: menu entry, icon, and .afenc
# files opening in afdesk, for this user (no root needed). Run it from the source folder
# after the README's set-up command:
#     bash packaging/linux/install-desktop.sh [AFDESK]
# AFDESK is the afdesk command the menu entry starts: by default the source folder's
# .venv/bin/afdesk, else the afdesk on the PATH. The entry names it by its full path, so it
# works whatever the desktop's PATH holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
afdesk="${1:-}"
if [[ -z "$afdesk" && -x "$here/../../.venv/bin/afdesk" ]]; then
    afdesk="$(cd "$here/../../.venv/bin" && pwd)/afdesk"
fi
if [[ -z "$afdesk" ]]; then
    afdesk="$(command -v afdesk || true)"
fi
if [[ -z "$afdesk" || ! -x "$afdesk" ]]; then
    echo "install-desktop.sh: no afdesk command found: install afdesk first (README, Set up)," >&2
    echo "or name it: bash packaging/linux/install-desktop.sh /path/to/afdesk" >&2
    exit 2
fi
afdesk="$(cd "$(dirname "$afdesk")" && pwd)/$(basename "$afdesk")"
install -d "$data/applications"
sed "s|^Exec=.*|Exec=\"$afdesk\" %f|" "$here/afdesk.desktop" >"$data/applications/afdesk.desktop"
install -Dm644 "$here/../../resources/icons/afdesk.svg" "$data/icons/hicolor/scalable/apps/afdesk.svg"
install -Dm644 "$here/afdesk-mime.xml" "$data/mime/packages/afdesk.xml"
command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$data/applications" || true
echo "afdesk is registered ($afdesk): look for it in your applications menu."
