; Inno Setup script: a per-user installer for the Windows build (no administrator rights).
;
;   python packaging\build.py                     (makes dist\afdesk\ and build\icons\)
;   iscc /DAppVersion=0.1.0 packaging\windows\afdesk.iss
;
; Result: dist\afdesk-0.1.0-setup.exe. It installs into %LOCALAPPDATA%\Programs\afdesk, adds a
; Start menu entry, opens .afenc files in afdesk (HKCU\Software\Classes) and registers an
; uninstaller. The crash journals and the GM's tile sets (%LOCALAPPDATA%\afdesk) are kept.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6C7B5A3E-5E0B-4E0D-9F3B-AFDE5C0FFEE1}
AppName=afdesk
AppVersion={#AppVersion}
AppPublisher=afdesk
DefaultDirName={localappdata}\Programs\afdesk
DefaultGroupName=afdesk
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ChangesAssociations=yes
OutputDir=..\..\dist
OutputBaseFilename=afdesk-{#AppVersion}-setup
SetupIconFile=..\..\build\icons\afdesk.ico
UninstallDisplayIcon={app}\afdesk.exe
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible

[Files]
Source: "..\..\dist\afdesk\*"; DestDir: "{app}"; Flags: recursesubdirs createallsubdirs ignoreversion

[Icons]
Name: "{userprograms}\afdesk"; Filename: "{app}\afdesk.exe"
Name: "{userdesktop}\afdesk"; Filename: "{app}\afdesk.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop icon"; Flags: unchecked

[Registry]
Root: HKCU; Subkey: "Software\Classes\.afenc"; ValueType: string; ValueName: ""; ValueData: "afdesk.encounter"; Flags: uninsdeletevalue
Root: HKCU; Subkey: "Software\Classes\afdesk.encounter"; ValueType: string; ValueName: ""; ValueData: "afdesk encounter"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\afdesk.encounter\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\afdesk.exe,0"
Root: HKCU; Subkey: "Software\Classes\afdesk.encounter\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\afdesk.exe"" ""%1"""

[Run]
Filename: "{app}\afdesk-cli.exe"; Parameters: "--self-test"; Flags: runhidden; StatusMsg: "Checking the installation..."
Filename: "{app}\afdesk.exe"; Description: "Start afdesk"; Flags: nowait postinstall skipifsilent
