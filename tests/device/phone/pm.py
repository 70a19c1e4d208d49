"""Stand-in for Android's pm: `path`, `list packages`, `install [-r] [-d] [-t] FILE`, `uninstall`.

An installed package is a marker file installed/<package> under the phone root holding the APK's
signer. `install` reads the APK as Android does at this level: a zip with an AndroidManifest.xml
naming the package (our fake APKs keep it as text), `-r` needed to replace, a different signer
refused (INSTALL_FAILED_UPDATE_INCOMPATIBLE, which AutoMobile answers with uninstall + install:
CtrlProxyManager.ts `installDownloadedApk`). Output as pm prints it: `Success` or `Failure [...]`.
"""

import os
import re
import sys
import zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
installed = os.path.join(root, "installed")
os.makedirs(installed, exist_ok=True)
args = sys.argv[1:]
with open(os.path.join(root, "pm.log"), "a") as f:
    f.write(" ".join(args) + "\n")


def fail(code):
    print(f"Failure [{code}]")
    sys.exit(1)


if args[:1] == ["path"] and len(args) == 2:
    if os.path.exists(os.path.join(installed, args[1])):
        print(f"package:/data/app/~~stand-in/{args[1]}/base.apk")
        sys.exit(0)
    sys.exit(1)
if args[:2] == ["list", "packages"]:
    for name in sorted(os.listdir(installed)):
        print(f"package:{name}")
    sys.exit(0)
if args[:1] == ["uninstall"] and len(args) == 2:
    marker = os.path.join(installed, args[1])
    if not os.path.exists(marker):
        fail("DELETE_FAILED_INTERNAL_ERROR")
    os.remove(marker)
    print("Success")
    sys.exit(0)
if args[:1] == ["install"] and args[1:]:
    flags, path = args[1:-1], args[-1]
    try:
        with zipfile.ZipFile(path) as apk:
            manifest = apk.read("AndroidManifest.xml").decode()
            signer = (
                apk.read("META-INF/CERT.RSA").decode()
                if "META-INF/CERT.RSA" in apk.namelist()
                else ""
            )
    except (OSError, KeyError, zipfile.BadZipFile):
        fail("INSTALL_PARSE_FAILED_NOT_APK: Failed to parse " + path)
    match = re.search(r'package="([^"]+)"', manifest)
    if match is None:
        fail("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED")
    marker = os.path.join(installed, match.group(1))
    if os.path.exists(marker):
        if "-r" not in flags:
            fail(
                f"INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install {match.group(1)} without first uninstalling."
            )
        with open(marker) as f:
            if f.read() != signer:
                fail(
                    f"INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package {match.group(1)} signatures do not match newer version; ignoring!"
                )
    with open(marker, "w") as f:
        f.write(signer)
    print("Success")
    sys.exit(0)
print(f"pm: unsupported {' '.join(args)}", file=sys.stderr)
sys.exit(1)
