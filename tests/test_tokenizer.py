"""The jieba tokenizer with the HR user dictionary, and query expansion by synonyms."""

from __future__ import annotations

from rag_core.text.tokenizer import expand_query, tokenize


def test_user_dictionary_keeps_hr_words_whole():
    for word in ["年假", "调休", "五险一金", "网约车", "行程单", "实报实销"]:
        assert word in tokenize(f"关于{word}的规定"), word
    assert "oa" in tokenize("在 OA 系统提交") and "600" in tokenize("上限 600 元")
    assert "的" not in tokenize("公司的制度")


def test_synonyms_expand_colloquial_words():
    tokens, added, groups = expand_query("打车费能报吗")
    assert "出租车" in added and "网约车" in added
    assert any("出租车" in g for g in groups.values())


def _jieba_cache(tmp_path):
    """A jieba cache file in tmp_path holding jieba's own dictionary (as jieba writes it)."""
    import marshal

    import jieba

    from rag_core.text.tokenizer import jieba_tokenizer

    jieba_tokenizer()  # jieba.dt holds jieba's dictionary from here on
    (tmp_path / "jieba.cache").write_bytes(marshal.dumps((jieba.dt.FREQ, jieba.dt.total)))
    return jieba.dt


def _fresh_pair(tmp_path):
    import jieba

    tok, default = jieba.Tokenizer(), jieba.Tokenizer()
    tok.tmp_dir = default.tmp_dir = str(tmp_path)
    return tok, default


def test_one_dictionary_read_serves_ours_and_jieba_lcut_without_our_words(tmp_path, monkeypatch):
    """The default tokenizer (jieba.lcut, the extractive answerer's) gets jieba's dictionary from ours instead of
    reading it again, and without the HR words; ours reads jieba's cache itself (jieba's initialize is not run)."""
    import jieba

    from rag_core.text.tokenizer import _build

    reference = _jieba_cache(tmp_path)
    runs: list = []
    monkeypatch.setattr(jieba.Tokenizer, "initialize", lambda self, dictionary=None: runs.append(self))
    tok, default = _fresh_pair(tmp_path)
    _build(tok, default)
    assert runs == [] and default.initialized
    assert default.FREQ == reference.FREQ and default.FREQ is not tok.FREQ
    assert "五险一金" in tok.FREQ and "五险一金" not in default.FREQ
    text = "员工的五险一金和带薪年假怎么算"
    assert default.lcut(text) == reference.lcut(text)
    assert "五险一金" in tok.lcut(text) and "五险一金" not in default.lcut(text)


def test_a_damaged_or_missing_jieba_cache_is_left_to_jieba(tmp_path, monkeypatch):
    import jieba

    from rag_core.text.tokenizer import _build

    reference = _jieba_cache(tmp_path)

    def jieba_builds(self, dictionary=None):  # stands in for jieba's rebuild (1-2 s): the same dictionary
        runs.append(self)
        self.FREQ, self.total, self.initialized = dict(reference.FREQ), reference.total, True

    monkeypatch.setattr(jieba.Tokenizer, "initialize", jieba_builds)
    for damage in (b"not a marshal file", (tmp_path / "jieba.cache").read_bytes()[:1000], None):
        runs: list = []
        if damage is None:
            (tmp_path / "jieba.cache").unlink()
        else:
            (tmp_path / "jieba.cache").write_bytes(damage)
        tok, default = _fresh_pair(tmp_path)
        _build(tok, default)
        assert runs == [tok], damage
        assert "五险一金" in tok.lcut("员工的五险一金")


class _FakeTagger:
    def cut(self, text):
        return []


def test_the_tagger_is_built_once_when_the_warm_up_and_a_question_race(monkeypatch):
    """There must be one tagger (jieba gives the HR words' tags to the first one only), built on the warm-up's
    thread while a question may ask for it."""
    import threading
    import time
    from functools import lru_cache

    from rag_core.text import tokenizer

    @lru_cache(maxsize=1)
    def slow_build():
        time.sleep(0.2)
        return _FakeTagger()

    monkeypatch.setattr(tokenizer, "_new_pos_tokenizer", slow_build)
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(tokenizer._pos_tokenizer())) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 3 and len({id(x) for x in got}) == 1


def test_the_warm_up_builds_the_tagger_on_its_own_thread_without_holding_up_tokenize(monkeypatch):
    """The first question tokenizes while the tables load: building them must not hold jieba's lock."""
    import threading
    from functools import lru_cache

    from rag_core.text import tokenizer

    question_done = threading.Event()
    seen: list[bool] = []

    @lru_cache(maxsize=1)
    def build_after_the_question():
        seen.append(question_done.wait(timeout=10))  # False: tokenize waited for this build
        return _FakeTagger()

    monkeypatch.setattr(tokenizer, "_new_pos_tokenizer", build_after_the_question)
    monkeypatch.setattr(tokenizer, "POS_WARM_UP_DELAY_S", 0.0)
    thread = tokenizer.warm_up_tokenizer()
    assert thread.name == "pos-tables-load"
    assert "年假" in tokenize("年假有几天")
    question_done.set()
    thread.join()
    assert seen == [True]


def test_the_tagger_tables_wait_until_a_one_question_process_is_done(monkeypatch):
    """The warm-up schedules the tables for later instead of loading them beside the first question."""
    import threading

    from rag_core.text import tokenizer

    # who built the tables: a timer another test of this worker process left running may fire meanwhile (under load
    # it did, three times), so only this test's own timer counts
    built: list[threading.Thread] = []
    monkeypatch.setattr(tokenizer, "_new_pos_tokenizer", lambda: built.append(threading.current_thread()) or _FakeTagger())
    thread = tokenizer.warm_up_tokenizer()
    try:
        assert isinstance(thread, threading.Timer) and thread.interval == tokenizer.POS_WARM_UP_DELAY_S > 0
        assert thread.daemon  # a process that is done does not wait for it
    finally:
        thread.cancel()
    thread.join()
    assert thread not in built and threading.main_thread() not in built
