"""AutoMobile's release assets the studio installs on a phone: the pinned list of releases it has
verified checksums for (CtrlProxy's APK, the video-server jar), their download URLs, and a download
that tells its size first, reports progress, can be cancelled, and keeps a file only when its
sha256 is the pinned one (written atomically into the studio's cache).

Follows AutoMobile's host (kaeawc/auto-mobile `src/constants/release.ts`: `RELEASE_CHECKSUM_
REGISTRY`, `buildReleaseAssetUrl`, `DEFAULT_ASSET_BASE_URL`, `assertHttpsAssetUrl`,
`VIDEO_SERVER_JAR_FILENAME`; `src/utils/CtrlProxyManager.ts` `downloadApk`, `verifyApkIntegrity`).

Blocking (httpx's sync client): the studio runs these in a worker thread.
"""

from __future__ import annotations

import hashlib
import os
import threading
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import platformdirs

#: release.ts `DEFAULT_ASSET_BASE_URL`; an asset is `<base>/<version>/<file>`.
DEFAULT_BASE_URL = "https://github.com/kaeawc/auto-mobile/releases/download"
#: A mirror of the release assets, as AutoMobile's `AUTOMOBILE_ASSET_BASE_URL`.
BASE_URL_ENV = "PROTO_STUDIO_AUTOMOBILE_ASSET_BASE_URL"
APK_FILE = "control-proxy-debug.apk"  # the asset AutoMobile's host installs (release.ts APK_URL)
VIDEO_JAR_FILE = "automobile-video.jar"  # release.ts `VIDEO_SERVER_JAR_FILENAME`
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Release:
    """One AutoMobile release and the sha256 of its assets, from AutoMobile's own checksum
    registry. `prototypes`: its CtrlProxy serves `show_prototype`."""

    version: str
    apk_sha256: str
    video_jar_sha256: str | None
    prototypes: bool


#: Newest first. Real values from kaeawc/auto-mobile `src/constants/release.ts@896e5c50`
#: `RELEASE_CHECKSUM_REGISTRY`, the newest registry readable where the studio was built. Its
#: newest release, 0.0.66, predates AutoMobile's Android prototypes (its CHANGELOG reaches issue
#: #5237 at 0.0.54; the prototype work is issues #9xxx-#11xxx), so its APK cannot show a
#: prototype and is never offered for that; its video-server jar is the one the mirror uses.
#: docs/devices.md says how a phone owner adds the first release with prototype support.
PINNED: tuple[Release, ...] = (
    Release(
        "0.0.66",
        apk_sha256="98f52fc04c429d14b1989a0adb219789e1f9590c799f04f865b10e4d0adbbfec",
        video_jar_sha256="e5ce791aed17a1bf391db5737367a8ca2d7792b805f2fa4235e4ec7f8cee062c",
        prototypes=False,
    ),
)


class DownloadError(RuntimeError):
    """A download that failed or was refused (one line: what, from where, what to do)."""


class DownloadCancelled(DownloadError):
    pass


@dataclass(frozen=True)
class Asset:
    """One file of one release, where it comes from and the sha256 it must have."""

    file: str
    version: str
    url: str
    sha256: str

    @property
    def title(self) -> str:
        return f"{self.file} (AutoMobile {self.version})"

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc


Progress = Callable[[int, int | None], None]  # (bytes so far, total when known)


def _base_url(base_url: str | None) -> str:
    base = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).strip().rstrip("/")
    parts = urlsplit(base)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK):
        return base
    raise DownloadError(
        f"{BASE_URL_ENV}={base}: the release mirror must be an https:// URL (plain http only on "
        "this machine's loopback), as AutoMobile requires (release.ts assertHttpsAssetUrl)"
    )


class Releases:
    """The pinned releases and their assets, downloaded into the studio's cache."""

    def __init__(
        self,
        pinned: Sequence[Release] = PINNED,
        *,
        base_url: str | None = None,
        cache_dir: Path | None = None,
        timeout_s: float = 30.0,
    ):
        self.pinned = tuple(pinned)
        self.base_url = _base_url(base_url)
        self.cache_dir = (
            cache_dir or Path(platformdirs.user_cache_dir("proto-studio")) / "automobile"
        )
        self.timeout_s = timeout_s

    def _asset(self, release: Release, file: str, sha256: str) -> Asset:
        return Asset(file, release.version, f"{self.base_url}/{release.version}/{file}", sha256)

    def ctrlproxy_apk(self) -> Asset | None:
        """The newest pinned CtrlProxy APK that can show prototypes, or None."""
        for release in self.pinned:
            if release.prototypes:
                return self._asset(release, APK_FILE, release.apk_sha256)
        return None

    def newest_known(self) -> str | None:
        return self.pinned[0].version if self.pinned else None

    def video_jar(self) -> Asset | None:
        """The newest pinned video-server jar, or None."""
        for release in self.pinned:
            if release.video_jar_sha256:
                return self._asset(release, VIDEO_JAR_FILE, release.video_jar_sha256)
        return None

    def path(self, asset: Asset) -> Path:
        return self.cache_dir / asset.version / asset.file

    def cached(self, asset: Asset) -> Path | None:
        """The asset in the cache when its bytes still have the pinned sha256."""
        path = self.path(asset)
        try:
            return path if _sha256(path) == asset.sha256 else None
        except OSError:
            return None

    def size(self, asset: Asset) -> int | None:
        """The download's size in bytes, asked before anything is downloaded (HEAD, redirects
        followed: GitHub's assets live on another host); None when the server does not say."""
        try:
            with httpx.Client(follow_redirects=True, timeout=self.timeout_s) as client:
                reply = client.head(asset.url)
                reply.raise_for_status()
        except httpx.HTTPError as exc:
            raise DownloadError(f"{asset.title} at {asset.url}: {_why(exc)}") from exc
        length = reply.headers.get("content-length")
        return int(length) if length and length.isdigit() else None

    def download(
        self,
        asset: Asset,
        on_progress: Progress | None = None,
        cancel: threading.Event | None = None,
    ) -> Path:
        """Download the asset into the cache, verified, and return its path. A wrong sha256, a
        cancel or a network failure leaves nothing behind and raises DownloadError."""
        if (hit := self.cached(asset)) is not None:
            return hit
        dest = self.path(asset)
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = dest.with_name(dest.name + ".part")
        digest = hashlib.sha256()
        try:
            with (
                httpx.Client(follow_redirects=True, timeout=self.timeout_s) as client,
                client.stream("GET", asset.url) as reply,
            ):
                reply.raise_for_status()
                length = reply.headers.get("content-length")
                total = int(length) if length and length.isdigit() else None
                done = 0
                with part.open("wb") as out:
                    for chunk in reply.iter_bytes(_CHUNK):
                        if cancel is not None and cancel.is_set():
                            raise DownloadCancelled(f"{asset.title}: download cancelled")
                        out.write(chunk)
                        digest.update(chunk)
                        done += len(chunk)
                        if on_progress is not None:
                            on_progress(done, total)
                    out.flush()
                    os.fsync(out.fileno())
            got = digest.hexdigest()
            if got != asset.sha256:
                raise DownloadError(
                    f"{asset.title} from {asset.host}: sha256 {got} is not the pinned "
                    f"{asset.sha256}; the file was deleted and nothing was installed"
                )
            if asset.file.endswith(".apk"):
                _check_apk(part, asset)
            os.replace(part, dest)
            return dest
        except httpx.HTTPError as exc:
            raise DownloadError(f"{asset.title} at {asset.url}: {_why(exc)}") from exc
        except OSError as exc:
            raise DownloadError(f"{asset.title}: cannot write {part} ({exc.strerror})") from exc
        finally:
            part.unlink(missing_ok=True)


def _check_apk(path: Path, asset: Asset) -> None:
    """AutoMobile's own sanity checks (CtrlProxyManager.ts `downloadApk`, `verifyApkIntegrity`):
    at least 10 kB, a zip with an AndroidManifest.xml."""
    try:
        with zipfile.ZipFile(path) as apk:
            has_manifest = "AndroidManifest.xml" in apk.namelist()
    except (OSError, zipfile.BadZipFile):
        has_manifest = False
    if path.stat().st_size < 10_000 or not has_manifest:
        raise DownloadError(
            f"{asset.title}: not an APK (no AndroidManifest.xml); nothing was installed"
        )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _why(exc: httpx.HTTPError) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        return f"HTTP {exc.response.status_code}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def human_size(size: int | None) -> str:
    if size is None:
        return "size unknown"
    if size >= 1 << 20:
        return f"{size / (1 << 20):.1f} MB"
    return f"{max(1, size // 1024)} kB"
