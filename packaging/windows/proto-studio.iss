; Inno Setup 6 script of the Windows installer (not runnable on Linux). packaging/build.sh windows
; compiles it after the one-folder build passed its checks:
;   iscc /DAppVersion=<version> packaging\windows\proto-studio.iss
; The installer puts dist\proto-studio in Program Files (or the user's folder, when the user
; chooses not to elevate), adds Start menu and optional desktop shortcuts, opens .protobundle
; files with the studio and offers it in "Open with" for .json specs; uninstalling removes all of
; it (a library in the user's data folder is never touched).
#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z packaging\windows\proto-studio.iss
#endif
#define Root "..\.."

[Setup]
AppId={{6F2C7A4E-8B1D-4E8A-9C53-2D7F0E1B4A90}
AppName=Proto Studio
AppVersion={#AppVersion}
AppVerName=Proto Studio {#AppVersion}
AppPublisher=Proto Studio
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\Proto Studio
DefaultGroupName=Proto Studio
DisableProgramGroupPage=yes
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
WizardStyle=modern
SetupIconFile={#Root}\build\icons\proto-studio.ico
UninstallDisplayIcon={app}\proto-studio.exe
UninstallDisplayName=Proto Studio
LicenseFile={#Root}\resources\licenses\Apache-2.0.txt
OutputDir={#Root}\dist
OutputBaseFilename=ProtoStudioSetup-{#AppVersion}
Compression=lzma2/max
SolidCompression=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Root}\dist\proto-studio\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Proto Studio"; Filename: "{app}\proto-studio.exe"
Name: "{autodesktop}\Proto Studio"; Filename: "{app}\proto-studio.exe"; Tasks: desktopicon

[Registry]
; .protobundle opens with the studio (double-click), with the studio's icon.
Root: HKA; Subkey: "Software\Classes\.protobundle"; ValueType: string; ValueName: ""; ValueData: "ProtoStudio.Bundle"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.protobundle"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-protobundle"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.protobundle\OpenWithProgids"; ValueType: string; ValueName: "ProtoStudio.Bundle"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Bundle"; ValueType: string; ValueName: ""; ValueData: "Proto Studio prototype"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Bundle\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\proto-studio.exe,0"
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Bundle\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\proto-studio.exe"" ""%1"""
; .json specs: listed under "Open with", never made the default.
Root: HKA; Subkey: "Software\Classes\.json\OpenWithProgids"; ValueType: string; ValueName: "ProtoStudio.Spec"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Spec"; ValueType: string; ValueName: ""; ValueData: "Prototype spec (JSON)"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Spec\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\proto-studio.exe,0"
Root: HKA; Subkey: "Software\Classes\ProtoStudio.Spec\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\proto-studio.exe"" ""%1"""
; The application itself, for "Open with > Choose another app".
Root: HKA; Subkey: "Software\Classes\Applications\proto-studio.exe"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "Proto Studio"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\proto-studio.exe\SupportedTypes"; ValueType: string; ValueName: ".protobundle"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\proto-studio.exe\SupportedTypes"; ValueType: string; ValueName: ".json"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\proto-studio.exe\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\proto-studio.exe"" ""%1"""

[Run]
Filename: "{app}\proto-studio.exe"; Description: "{cm:LaunchProgram,Proto Studio}"; Flags: nowait postinstall skipifsilent
