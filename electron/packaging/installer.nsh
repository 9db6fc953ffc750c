; Lanes' additions to electron-builder's NSIS installer (nsis.include in electron-builder.yml):
; the folder holding the standalone `lanes.exe` goes on the user's PATH at install and comes off
; it at uninstall, so `lanes` works in any new terminal. The PATH is edited by user-path.ps1, not
; in NSIS itself: NSIS strings are cut at 1024 characters, and a longer PATH written back cut
; would lose the person's other entries.

!include WinMessages.nsh

!macro lanesUserPath action
  ; $0 is the installer's own elsewhere: kept as it was.
  Push $0
  nsExec::ExecToLog 'powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "$INSTDIR\resources\user-path.ps1" ${action} "$INSTDIR\resources\bin"'
  Pop $0
  ${if} $0 != 0
    DetailPrint "Lanes: could not ${action} $INSTDIR\resources\bin on your PATH (exit $0)"
  ${endIf}
  Pop $0
  ; Tell running programs (Explorer, and so new terminals) that the environment changed.
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
!macroend

!macro customInstall
  !insertmacro lanesUserPath add
!macroend

!macro customUnInstall
  ; An update uninstalls the old version first, then installs into the same folder: keep it.
  ${ifNot} ${isUpdated}
    !insertmacro lanesUserPath remove
  ${endIf}
!macroend
