"""Files read from the server's disk by path (`ingest_file`, `estimate_file`): administrators only.

Why a separate door: a path lets the engine read any file the server process can, so HR calling
it could publish a private note or another install's export to every employee. HR uploads the
file's bytes on the documents page (`ingest_bytes`); a path is for the CLI and the desktop user,
who act as the local administrator. The refusal comes before the path is looked at.
"""

from __future__ import annotations

from pathlib import Path

from ..documents.bounds import IngestEstimate
from ..documents.safe_read import read_regular_file
from ..errors import IngestError, PermissionDenied
from ..types import IngestReport, Principal
from .access import allowed
from .upload_input import UploadInput, displayable_name

PATH_REFUSAL = "请在文档页上传文件：只有管理员能让系统读取服务器上的文件路径"


class ServerFiles(UploadInput):
    """Mixin of `DocumentActions`: a file on disk, checked and read, then handed to `ingest_bytes`."""

    def ingest_file(self, path: str | Path, **kwargs) -> IngestReport:
        """Index a file from disk (refused by its size before it is read); see `ingest_bytes`.

        Only for an administrator (`_path_reader`): HR uploads the file's bytes on the documents page."""
        path = Path(path)
        name = displayable_name(kwargs.pop("filename", None) or _named(path))
        actor = self._path_reader(kwargs.get("actor"), name)
        try:
            size = path.lstat().st_size  # never blocks (a FIFO), reads nothing; a symlink is judged by read_regular_file
        except OSError:
            size = 0  # read_regular_file says why
        if size > self._settings.max_file_bytes:
            limit, shown = self._settings.max_file_mb, self._shown_name(name)
            refused = f"文件大小 {size / 1048576:.1f} MB 超过上限 {limit:g} MB"
            self._audit(actor, "refused", f"document.upload {shown}", "refused", refused)  # as ingest_bytes does
            return IngestReport(filename=shown, status="refused", error=f"{shown}: {refused}")
        try:  # only a regular file, never more than the size limit (a FIFO, a device, a directory are refused)
            data = read_regular_file(path, max_bytes=self._settings.max_file_bytes, name=self._shown_name(name))
        except IngestError as exc:
            self._audit(actor, "refused", f"document.upload {exc.filename}", "refused", exc.reason)
            return IngestReport(filename=exc.filename, status="refused", error=str(exc))
        return self.ingest_bytes(data, name, **kwargs)

    def estimate_file(self, path: str | Path, **kwargs) -> IngestEstimate:
        """`estimate_ingest` for a file on disk (read as `ingest_file` reads it: regular files only; administrators)."""
        path = Path(path)
        name = displayable_name(kwargs.pop("filename", None) or _named(path))
        self._path_reader(kwargs.get("actor"), name)
        try:
            data = read_regular_file(path, max_bytes=self._settings.max_file_bytes, name=self._shown_name(name))
        except IngestError as exc:
            return IngestEstimate(filename=exc.filename, error=str(exc))
        return self.estimate_ingest(data, name, **kwargs)

    def _path_reader(self, actor: Principal | None, name: str) -> Principal:
        """The actor, when it may have the engine read a path on the server's disk: an administrator (the CLI,
        the desktop user). HR reading a path could publish any readable file on the server to every employee;
        refused before the path is looked at (one audit row)."""
        actor = self._acting(actor, "documents.manage")
        if not allowed(actor, "maintenance"):
            self._audit(actor, "refused", f"document.upload {self._shown_name(name)}", "refused", PATH_REFUSAL)
            raise PermissionDenied(PATH_REFUSAL)
        return actor


def _named(path: Path) -> str:
    """The name a refusal gives the path: its last part, or the path as typed when it has none (., .., /): the
    line began with a bare colon (review 349)."""
    return path.name or str(path)
