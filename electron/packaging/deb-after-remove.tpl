#!/bin/sh
# The deb's postrm (electron-builder's after-remove, extended): removes what the postinst made,
# the links only where they are still ours, and the completions it wrote. DPKG_ROOT as there.
set -e
root="$DPKG_ROOT"
# On upgrade the new version's postinst runs next and makes them again.
[ "$1" = upgrade ] && exit 0

for name in lanes "${executable}"; do
  case "$(readlink "$root/usr/bin/$name" 2>/dev/null || true)" in
    */opt/${sanitizedProductName}/*) rm -f "$root/usr/bin/$name" ;;
  esac
done
rm -f "$root/usr/share/bash-completion/completions/lanes" "$root/usr/share/zsh/vendor-completions/_lanes"

[ -z "$root" ] || exit 0
profile="/etc/apparmor.d/${executable}"
if [ -f "$profile" ]; then
  if apparmor_status --enabled >/dev/null 2>&1; then
    if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; } && command -v apparmor_parser >/dev/null 2>&1; then
      apparmor_parser --remove "$profile" || true
    fi
  fi
  rm -f "$profile"
fi
