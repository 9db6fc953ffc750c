#!/bin/sh
# The deb's postinst (electron-builder's after-install, extended; it fills in the two names in
# braces, so this file writes its own shell variables without braces). It puts the standalone
# command line on PATH as `lanes` and the window's binary as `${executable}`: `lanes status` in a
# terminal must answer, not open a second window. It also installs the bash and zsh completions.
# DPKG_ROOT is dpkg's: the root being installed into, empty for this system. Links are relative
# so they resolve the same inside that root as in /.
set -e
root="$DPKG_ROOT"
app="/opt/${sanitizedProductName}"
cli="$app/resources/bin/lanes"

# Builds before the CLI was named `lanes` put the window there through update-alternatives.
if [ -z "$root" ] && command -v update-alternatives >/dev/null 2>&1; then
  update-alternatives --remove lanes "$app/lanes" >/dev/null 2>&1 || true
fi

mkdir -p "$root/usr/bin"
ln -sfn "../../opt/${sanitizedProductName}/${executable}" "$root/usr/bin/${executable}"
# Another package's `lanes` is left alone: ours is then reached by its full path.
ours=yes
if [ -e "$root/usr/bin/lanes" ] || [ -L "$root/usr/bin/lanes" ]; then
  case "$(readlink "$root/usr/bin/lanes" 2>/dev/null || true)" in
    */opt/${sanitizedProductName}/*) ;;
    *) ours=no ;;
  esac
fi
if [ "$ours" = yes ]; then
  ln -sfn "../../opt/${sanitizedProductName}/resources/bin/lanes" "$root/usr/bin/lanes"
else
  echo "Lanes: /usr/bin/lanes belongs to something else; the Lanes command line is $cli" >&2
fi

# Completions, written by the command line itself so they match its commands.
mkdir -p "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions"
"$root$cli" completion bash > "$root/usr/share/bash-completion/completions/lanes" 2>/dev/null || rm -f "$root/usr/share/bash-completion/completions/lanes"
"$root$cli" completion zsh > "$root/usr/share/zsh/vendor-completions/_lanes" 2>/dev/null || rm -f "$root/usr/share/zsh/vendor-completions/_lanes"

# Chromium's sandbox helper needs setuid only where user namespaces do not work.
if [ -L /proc/self/ns/user ] && unshare --user true 2>/dev/null; then
  chmod 0755 "$root$app/chrome-sandbox" 2>/dev/null || true
else
  chmod 4755 "$root$app/chrome-sandbox" 2>/dev/null || true
fi

# What follows changes the running system, which an install into another root must not.
[ -z "$root" ] || exit 0
if command -v update-mime-database >/dev/null 2>&1; then update-mime-database /usr/share/mime || true; fi
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database /usr/share/applications || true; fi

# The AppArmor profile (Ubuntu 24+), where this AppArmor understands it; not loaded in a chroot.
if apparmor_status --enabled >/dev/null 2>&1; then
  source_profile="$app/resources/apparmor-profile"
  target_profile="/etc/apparmor.d/${executable}"
  if apparmor_parser --skip-kernel-load --debug "$source_profile" >/dev/null 2>&1; then
    cp -f "$source_profile" "$target_profile"
    if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; } && command -v apparmor_parser >/dev/null 2>&1; then
      apparmor_parser --replace --write-cache --skip-read-cache "$target_profile"
    fi
  else
    echo "Skipping the AppArmor profile: this AppArmor does not support it"
  fi
fi
