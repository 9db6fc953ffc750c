# Adds a folder to the user's PATH, or removes it: `user-path.ps1 add|remove FOLDER`. Run by the
# NSIS installer (installer.nsh). The value is read and written as the registry holds it, not
# expanded: entries such as %USERPROFILE%\bin stay as the person wrote them.
param(
  [Parameter(Mandatory = $true)][ValidateSet('add', 'remove')][string]$Action,
  [Parameter(Mandatory = $true)][string]$Folder
)
$ErrorActionPreference = 'Stop'
$key = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Environment', $true)
$current = [string]$key.GetValue('Path', '', [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames)
$others = @($current -split ';' | Where-Object { $_ -ne '' -and $_.TrimEnd('\') -ne $Folder.TrimEnd('\') })
$entries = if ($Action -eq 'add') { $others + $Folder } else { $others }
$key.SetValue('Path', ($entries -join ';'), [Microsoft.Win32.RegistryValueKind]::ExpandString)
$key.Close()
