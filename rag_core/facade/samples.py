"""The bundled sample policies: indexed once, on a store's very first start (`ensure_samples`).

Why once: in a team install HR may delete the eight fictional samples; seeding whenever the
library was empty brought them back for everyone at the next restart (audited as `system`).
The catalog's `samples_seeded` row says they were seeded, or that the store was in use
without them; no action re-seeds them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..documents.catalog import Catalog
from ..search.indexer import Progress
from ..search.sample_pack import sample_files, seed_from_pack
from ..types import IngestReport
from .access import SYSTEM
from .core import FacadeCore

SAMPLES_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "samples"
SAMPLE_PACK = SAMPLES_DIR.parent / "sample_vectors.npz"  # their e5 vectors, made by bench/sample_pack.py


class SampleSeeding(FacadeCore):
    """Mixin of `DocumentActions`: the first-start seeding of the sample policies."""

    sample_pack_status = ""  # what the last ensure_samples did with the shipped sample vectors
    catalog: Catalog

    def ensure_samples(
        self, directory: Path | None = None, progress: Progress | None = None, *,
        on_progress: Callable[[int, int, str], None] | None = None, pack: Path | None = SAMPLE_PACK,
    ) -> list[IngestReport]:
        """Index the bundled sample policies on a store's very first start; never again after that.

        Once they were indexed, or the store was in use without them (`Catalog.samples_seeded`), nothing
        is: HR deleting the fictional samples must not see them back for everyone after a restart. A
        first seeding that indexed nothing is tried again at the next start.

        The shipped sample vectors (`pack`, see `search.sample_pack`) fill the embedding cache
        first when they fit this model and these files, so the model embeds nothing;
        `sample_pack_status` says whether they were used. `on_progress(done, total, file name)`
        is called before each file and once at the end; `progress` is each file's own.
        """
        if self.catalog.samples_seeded():
            return []
        if self.catalog.live_versions():  # a library in use before the samples came: they are not wanted
            self.catalog.mark_samples_seeded()
            return []
        folder = directory or SAMPLES_DIR
        files = sample_files(folder)
        self.sample_pack_status = "" if pack is None else seed_from_pack(pack, folder, self._settings, self.embedder)
        reports = []
        for done, path in enumerate(files):
            if on_progress:
                on_progress(done, len(files), path.name)
            reports.append(self.ingest_file(path, progress=progress, actor=SYSTEM))
            if progress:  # the indexer says nothing after a version goes live (a stop there read as "not written")
                progress("完成", 1.0)
        if on_progress:
            on_progress(len(files), len(files), "")
        if any(report.ok for report in reports):
            self.catalog.mark_samples_seeded()
        return reports
