#!/usr/bin/env bash
# Registers afdesk with the desktop: menu entry, icon, and .afenc files opening in afdesk.
# Run after `pip install .`; it installs into the user's XDG folders (no root needed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
install -Dm644 "$here/afdesk.desktop" "$data/applications/afdesk.desktop"
install -Dm644 "$here/../../resources/icons/afdesk.svg" "$data/icons/hicolor/scalable/apps/afdesk.svg"
install -Dm644 "$here/afdesk-mime.xml" "$data/mime/packages/afdesk.xml"
command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$data/applications" || true
echo "afdesk is registered: look for it in your applications menu."
