"""Chinese tokenisation for keyword search: jieba + an HR user dictionary.

The user dictionary keeps domain words whole (年假, 五险一金, 网约车, 行程单 …),
stopwords drop function words that match everywhere, and Latin words and
numbers are kept as tokens (OA, 600, 3). `thesaurus` adds policy terms for
colloquial words (打车 → 出租车 网约车) so keyword search is not blind to them.
"""

from __future__ import annotations

import logging
import marshal
import os
import re
import tempfile
import threading
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

_KEEP = re.compile(r"[\u4e00-\u9fff]|[a-z0-9]", re.IGNORECASE)
_lock = threading.Lock()
_pos_lock = threading.Lock()
# The tagger tables wait this long after the warm-up: a server has them long before most follow-ups; a
# question that names a word the policies never use needs them in its search too (`dictionary_nouns`), and
# one asked before they are loaded waits for them once. Loading them at once on
# the thread cost that question 0.4 s of CPU beside it on a loaded 2-core machine (bench/warm_restart.py).
POS_WARM_UP_DELAY_S = 3.0
_PARTICLES = frozenset("能会要可想该吗呢了的吧啊")


def _resource_lines(name: str) -> list[str]:
    text = resources.files("rag_core.text.resources").joinpath(name).read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@lru_cache(maxsize=1)
def jieba_tokenizer():
    """One jieba Tokenizer with the HR user dictionary, shared by every module."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    tok.tmp_dir = _own_cache_dir()
    return _build(tok, jieba.dt)


def _own_cache_dir() -> str | None:
    """A temp folder of this OS user's own for jieba's dictionary cache: in the shared one, another user's 0600
    jieba.cache made jieba print an English traceback and rebuild the dictionary at every start (review 392 #4).
    None (jieba's default) when it cannot be made."""
    who = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    path = os.path.join(tempfile.gettempdir(), f"hr-assistant-jieba-{who}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        mine = not hasattr(os, "getuid") or os.stat(path).st_uid == os.getuid()  # not one another user planted
    except OSError:
        return None
    return path if mine and os.access(path, os.W_OK) else None


def _build(tok, default):
    """`tok` with jieba's dictionary and ours; `default` (jieba's own, behind jieba.lcut) gets the same
    dictionary without ours, so the process reads it once (the extractive answerer cuts with jieba.lcut)."""
    if not _read_cached_dictionary(tok):
        tok.initialize()  # jieba builds the dictionary and writes its cache
    with default.lock:
        if not default.initialized and default.dictionary == tok.dictionary and not default.cache_file:
            # a copy (11 ms at 500k words) instead of reading the cache again (0.5 s); taken before our words go in
            default.FREQ, default.total, default.initialized = dict(tok.FREQ), tok.total, True
    dict_path = resources.files("rag_core.text.resources").joinpath("hr_userdict.txt")
    with resources.as_file(dict_path) as path:
        tok.load_userdict(str(path))
    return tok


def _read_cached_dictionary(tok) -> bool:
    """Load jieba's cached prefix dictionary in one read; False leaves it to jieba (no cache yet, damaged, custom).

    jieba unmarshals its cache from the open file, which reads it in small pieces: 0.55 s in a fresh process
    against 0.18 s for the same `marshal.loads` over the file's bytes. Same file, same check jieba makes
    for its default dictionary (the cache exists), same data.
    """
    if tok.initialized or tok.dictionary is not None or tok.cache_file:
        return False
    path = os.path.join(tok.tmp_dir or tempfile.gettempdir(), "jieba.cache")
    try:
        with open(path, "rb") as f:
            freq, total = marshal.loads(f.read())
    except Exception:  # missing, truncated or not jieba's: jieba rebuilds it
        return False
    if not isinstance(freq, dict) or not isinstance(total, int) or not freq:
        return False
    with tok.lock:
        tok.FREQ, tok.total, tok.initialized = freq, total, True
    return True


@lru_cache(maxsize=1)
def _new_pos_tokenizer():
    """Importing jieba.posseg builds jieba's own tagger, which reads the tags of jieba's dictionary (0.45 s); ours
    over the same dictionary takes a copy of them (~20 ms) instead of reading the file a second time."""
    import jieba.posseg

    tok, default = jieba_tokenizer(), jieba.posseg.dt
    if tok.dictionary != default.tokenizer.dictionary or default.tokenizer.user_word_tag_tab:
        return jieba.posseg.POSTokenizer(tok)  # another dictionary, or jieba's own tags already changed
    tagger = jieba.posseg.POSTokenizer.__new__(jieba.posseg.POSTokenizer)
    tagger.tokenizer, tagger.word_tag_tab = tok, dict(default.word_tag_tab)
    return tagger


def _pos_tokenizer():
    """The one part-of-speech tagger over the shared tokenizer. There must be only one: jieba hands the
    user dictionary's tags (年假/n) to the first tagger that asks and clears them for any later one
    (hence its own lock: the warm-up builds it on a thread while a question may ask for it)."""
    with _pos_lock:
        return _new_pos_tokenizer()


def tagged(text: str) -> list[tuple[str, str]]:
    """(word, part-of-speech tag) pairs by jieba with the HR dictionary (年假/n, 能/v, 几天/m)."""
    pos = _pos_tokenizer()  # outside `_lock`: building it (0.4 s) must not hold up tokenize
    with _lock:
        return [(pair.word, pair.flag) for pair in pos.cut(text)]


def is_word(word: str) -> bool:
    """jieba's dictionary or ours lists `word` (能补 and 要交票 are only pieces a search cut)."""
    return jieba_tokenizer().FREQ.get(word, 0) > 0


# Part-of-speech tags of words that name a thing (nouns, names, places, verbal nouns, abbreviations,
# Latin words): what a question can be about.
NOUN_TAGS = frozenset({"n", "nr", "ns", "nt", "nz", "nrt", "vn", "j", "eng"})


def dictionary_nouns(text: str) -> list[str]:
    """Nouns of two or more characters that jieba's dictionary (or ours) lists, in order (舅舅, 新加坡), and
    Latin words (iPad), which the tagger never guesses.

    A piece the tagger only guessed (金会 of 失业金会比…, absent from every dictionary) names nothing."""
    return [w for w, tag in tagged(text) if tag in NOUN_TAGS and len(w) >= 2 and (tag == "eng" or is_word(w))]


def foreign_nouns(nouns: Iterable[str], unknown: Iterable[str], used: Iterable[str] = ()) -> list[str]:
    """The nouns that are, or sit inside, a word the visible policies never use (舅舅, 新加坡; case-folded), and
    that the policies do not use on their own (`used`: 工资 inside an unknown 加班工资 is not foreign).

    Search hedges its verdicts on them; a doubtful follow-up naming one opens a new topic."""
    unknown = [w.casefold() for w in unknown]
    used = {w.casefold() for w in used}
    return list(dict.fromkeys(
        n.casefold() for n in nouns if n.casefold() not in used and any(n.casefold() in w for w in unknown)
    ))


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    return frozenset(_resource_lines("stopwords.txt"))


def is_stopword(word: str) -> bool:
    """A stopword, or a short word made only of stopwords (最多能 = 最多 + 能)."""
    stop = stopwords()
    if word in stop:
        return True
    if len(word) > 4:
        return False
    # can the word be split into stopwords? (tiny DP over at most 4 characters)
    # single characters only count when they are modal particles, so 个人 (个+人) stays a word
    def piece(p: str) -> bool:
        return p in _PARTICLES if len(p) == 1 else p in stop

    ok = [True] + [False] * len(word)
    for end in range(1, len(word) + 1):
        ok[end] = any(ok[start] and piece(word[start:end]) for start in range(end))
    return ok[-1]


def tokenize(text: str) -> list[str]:
    """Search-mode jieba tokens, lower-cased, without stopwords and punctuation, and without masked personal data: a
    question's [手机号] matched every clause that once held a phone number, as 手机/手机号 (review 376 #1)."""
    from .pii import PLACEHOLDERS  # imported here: pii's patterns are not needed to load the tokenizer

    tok = jieba_tokenizer()
    text = PLACEHOLDERS.sub(" ", text)
    with _lock:  # jieba's Tokenizer is not documented as thread-safe
        words = tok.lcut_for_search(text.lower(), HMM=True)
    return [w for w in (w.strip() for w in words) if w and _KEEP.search(w) and not is_stopword(w)]


def word_starts(text: str) -> frozenset[int]:
    """Offsets where jieba's precise cut starts a word: 年会 in 每年会调薪 does not start one."""
    tok = jieba_tokenizer()
    with _lock:
        return frozenset(start for _, start, _ in tok.tokenize(text.lower(), HMM=True))


def expand_query(query: str) -> tuple[list[str], list[str], dict[str, set[str]]]:
    """Tokens of the query plus the shipped thesaurus's policy terms (see `thesaurus.Thesaurus.expand`).

    Returns (tokens, added_terms, groups) where groups maps each query token to
    the expansion tokens that count as finding it (打车费 → {出租车, 网约车, …}).
    """
    from .thesaurus import default_thesaurus

    expansion = default_thesaurus().expand(query)
    return expansion.tokens, expansion.added, expansion.groups


def warm_up_tokenizer() -> threading.Thread:
    """Load jieba's dictionary, ours and the thesaurus now rather than on the first question; the part-of-speech
    tables on a thread of their own (returned), since most first questions do not use them.

    The tables (0.4 s: jieba's tagger module and a second pass over its dictionary) serve follow-ups,
    memories, a question naming a word the policies never use (its nouns are tagged) and a yes/no answer
    whose lead states 可以 / 不可以 (what the question turns on is tagged); a one-question
    process (`python -m rag_core ask`) waits for them only for such a question, and a server has them
    before its first follow-up (they were 12 % of one answer's server CPU in bench/load_browser.py's
    profile when the first follow-up loaded them).
    """
    expand_query("年假打车报销")
    thread = threading.Timer(POS_WARM_UP_DELAY_S, tagged, args=("年假打车报销",))
    thread.name, thread.daemon = "pos-tables-load", True
    thread.start()
    return thread
