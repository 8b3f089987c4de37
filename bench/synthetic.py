"""A deterministic synthetic policy corpus recombined from the sample policies.

Every generated document is a markdown policy of one of the eight sample
topics (考勤与休假, 加班, 差旅报销, 薪酬福利, 入职试用, 离职, 培训, 远程办公),
rebuilt from that topic's articles: some articles are dropped, the sentences
inside an article are reordered and sometimes borrowed from another article of
the same topic, and the company, department names and numbers are renamed.
The text therefore stays realistic Chinese policy prose (so jieba, BM25 and the
embedder see the kind of text they see in production) while chunk texts are
almost all distinct.

Document `i` depends only on (seed, i), so the corpus for 10k chunks is a
prefix of the corpus for 100k chunks:

    from bench.synthetic import generate_documents, documents_for_chunks
    docs = documents_for_chunks(10_000, seed=7)        # list[SyntheticDoc], ~10k chunks

    python bench/synthetic.py --chunks 1000 --out /tmp/corpus   # writes .md files
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "data" / "samples"
SAMPLE_COMPANY = "星河科技有限公司"
SAMPLE_SHORT = "星河科技"

_PREFIXES = ("云帆", "华信", "远景", "博达", "恒通", "蓝海", "启明", "瑞丰", "金桥", "天成", "新锐", "明德",
             "嘉禾", "鼎盛", "海川", "青松", "卓越", "长风", "正元", "汇智", "星辰", "东方", "安和", "泰康")
_INDUSTRIES = ("科技", "信息技术", "智能制造", "商贸", "物流", "传媒", "医药", "软件", "新能源", "网络科技")
_CITIES = ("北京", "上海", "杭州", "深圳", "成都", "武汉", "南京", "西安", "苏州", "广州")
# sample department name -> realistic alternatives used by other companies
_DEPARTMENTS: dict[str, tuple[str, ...]] = {
    "人力资源部": ("人力资源部", "人力资源中心", "人事行政部", "组织人事部", "人力资源与行政部"),
    "财务部": ("财务部", "财务中心", "财务管理部", "财务结算中心"),
    "信息技术部": ("信息技术部", "IT运维部", "数字化中心", "信息管理部"),
    "行政部": ("行政部", "综合管理部", "行政服务中心", "行政后勤部"),
}
_DIGITS = "零一二三四五六七八九"
_NUMBER = re.compile(r"(?<![\d:：.])\d+(?:\.\d+)?(?![\d:：])")
_NO_TOUCH_AFTER = tuple("月日号时点年")
_SENTENCE = re.compile(r"[^。；！？]+[。；！？]?")
_ARTICLE_HEAD = re.compile(r"^第[一二三四五六七八九十百]+[条章]\s*")


def chinese_number(n: int) -> str:
    """1 → 一, 10 → 十, 21 → 二十一 (enough for article and chapter numbers below 100)."""
    if n < 10:
        return _DIGITS[n]
    tens, ones = divmod(n, 10)
    head = "" if tens == 1 else _DIGITS[tens]
    return f"{head}十{_DIGITS[ones] if ones else ''}"


@dataclass(frozen=True)
class Article:
    chapter: str  # chapter title without its number (总则, 假期类别 …)
    title: str  # article title without its number (年假天数 …)
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class Template:
    """One sample policy split into articles."""

    key: str  # file stem, e.g. 01_attendance_leave
    title_suffix: str  # the title without the company, e.g. 考勤与休假管理制度
    articles: tuple[Article, ...]


@dataclass(frozen=True)
class SyntheticDoc:
    index: int
    filename: str
    topic: str
    text: str
    audience: tuple[str, ...]

    @property
    def data(self) -> bytes:
        return self.text.encode("utf-8")


def _split_sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(paragraph) if s.strip()]


def parse_template(path: Path) -> Template:
    """Split a sample markdown policy (# title, ## 第X章, ### 第X条, paragraphs) into articles."""
    title, chapter, article = "", "", ""
    articles: list[Article] = []
    body: list[str] = []

    def flush() -> None:
        if article and body:
            articles.append(Article(chapter, article, tuple(body)))

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("### "):
            flush()
            article, body = _ARTICLE_HEAD.sub("", line[4:]).strip(), []
        elif line.startswith("## "):
            flush()
            chapter, article, body = _ARTICLE_HEAD.sub("", line[3:]).strip(), "", []
        elif line.startswith("# "):
            title = line[2:].strip()
        else:
            body.extend(_split_sentences(line))
    flush()
    suffix = title.replace(SAMPLE_COMPANY, "", 1).strip() or path.stem
    return Template(path.stem, suffix, tuple(articles))


@lru_cache(maxsize=4)
def load_templates(samples_dir: Path = SAMPLES_DIR) -> tuple[Template, ...]:
    """The sample policies as templates, sorted by file name."""
    return tuple(parse_template(p) for p in sorted(Path(samples_dir).glob("*.md")))


def _nice(value: float) -> int:
    """Round to a number a policy would write (2 significant digits)."""
    if value < 10:
        return max(1, round(value))
    magnitude = 10 ** (len(str(int(value))) - 2)
    return max(1, int(round(value / magnitude) * magnitude))


class _Renamer:
    """Consistent per-document renaming of the company, departments and numbers."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        short = rng.choice(_PREFIXES) + rng.choice(_INDUSTRIES)
        self.company = f"{short}有限公司"
        self.short = short
        self.departments = {name: rng.choice(alts) for name, alts in _DEPARTMENTS.items()}
        self._numbers: dict[str, str] = {}
        self.scale = rng.choice((0.8, 0.9, 1.0, 1.0, 1.2, 1.5))

    def _number(self, match: re.Match) -> str:
        raw = match.group(0)
        after = match.string[match.end() : match.end() + 1]
        if after in _NO_TOUCH_AFTER or "." in raw:
            return raw
        if raw not in self._numbers:
            value = int(raw)
            if 1900 <= value <= 2100:
                new = value
            elif after == "%":
                new = min(100, max(5, int(round(value * self.scale / 5) * 5)))
            elif value < 10:
                new = max(1, value + self.rng.choice((-1, 0, 0, 1))) if self.rng.random() < 0.4 else value
            else:
                new = _nice(value * self.scale)
            self._numbers[raw] = str(new)
        return self._numbers[raw]

    def __call__(self, text: str) -> str:
        text = text.replace(SAMPLE_COMPANY, self.company).replace(SAMPLE_SHORT, self.short)
        for old, new in self.departments.items():
            text = text.replace(old, new)
        return _NUMBER.sub(self._number, text)


def _article_body(art: Article, pool: list[Article], rng: random.Random) -> list[str]:
    """The article's sentences: first kept, the rest reordered, sometimes one borrowed or dropped."""
    first, rest = art.sentences[0], list(art.sentences[1:])
    rng.shuffle(rest)
    if len(rest) > 2 and rng.random() < 0.15:
        rest.pop(rng.randrange(len(rest)))
    if rng.random() < 0.35:
        donor = rng.choice(pool)
        if donor is not art and donor.sentences:
            rest.insert(rng.randrange(len(rest) + 1), rng.choice(donor.sentences))
    return [first, *rest]


def _paragraphs(sentences: list[str], rng: random.Random) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(sentences):
        n = rng.choice((1, 2, 2, 3))
        para = "".join(sentences[i : i + n])
        out.append(para[:-1] + "。" if para.endswith(("；", ";")) else para)
        i += n
    return out


def make_document(index: int, seed: int = 7, restricted_share: float = 0.05,
                  templates: tuple[Template, ...] | None = None) -> SyntheticDoc:
    """Document number `index` of the corpus with this seed (independent of the others)."""
    templates = templates or load_templates()
    rng = random.Random(f"rag-bench:{seed}:{index}")
    tpl = templates[index % len(templates)]
    rename = _Renamer(rng)
    kept = [a for a in tpl.articles if rng.random() < 0.85] or list(tpl.articles[:3])
    pool = list(tpl.articles)
    title = f"{rename.company}{tpl.title_suffix}"
    if rng.random() < 0.5:
        title += f"（{rng.randint(2018, 2026)}年修订）"
    elif rng.random() < 0.5:
        title += f"（{rng.choice(_CITIES)}分公司）"
    lines = [f"# {title}", ""]
    chapter, n_chapter, n_article = None, 0, 0
    for art in kept:
        if art.chapter != chapter:
            chapter, n_chapter = art.chapter, n_chapter + 1
            lines += [f"## 第{chinese_number(n_chapter)}章 {art.chapter}", ""]
        n_article += 1
        lines += [f"### 第{chinese_number(n_article)}条 {art.title}", ""]
        for para in _paragraphs(_article_body(art, pool, rng), rng):
            lines += [rename(para), ""]
    audience = ("hr",) if rng.random() < restricted_share else ("all",)
    return SyntheticDoc(index, f"syn{seed}_{index:06d}_{tpl.key[3:]}.md", tpl.key, "\n".join(lines), audience)


def generate_documents(seed: int = 7, restricted_share: float = 0.05, start: int = 0) -> Iterator[SyntheticDoc]:
    """An endless, deterministic stream of documents."""
    templates = load_templates()
    index = start
    while True:
        yield make_document(index, seed, restricted_share, templates)
        index += 1


def count_chunks(doc: SyntheticDoc, chunk_size: int = 240, chunk_overlap: int = 60) -> int:
    """Chunks the engine's own parser and chunker make of this document (no jieba)."""
    sys.path.insert(0, str(ROOT))
    from rag_core.documents.chunking import chunk_document
    from rag_core.documents.parsing import parse_bytes

    parsed = parse_bytes(doc.data, doc.filename, max_bytes=1 << 30)
    return len(chunk_document(parsed, chunk_size, chunk_overlap))


def documents_for_chunks(n_chunks: int, seed: int = 7, restricted_share: float = 0.05,
                         chunk_size: int = 240, chunk_overlap: int = 60) -> list[SyntheticDoc]:
    """The shortest prefix of the stream holding at least `n_chunks` chunks."""
    out: list[SyntheticDoc] = []
    total = 0
    for doc in generate_documents(seed, restricted_share):
        if total >= n_chunks:
            break
        out.append(doc)
        total += count_chunks(doc, chunk_size, chunk_overlap)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--chunks", type=int, default=1000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", type=Path, default=None, help="write the .md files here (else print the first one)")
    args = p.parse_args(argv)
    docs = documents_for_chunks(args.chunks, args.seed)
    if args.out is None:
        sys.stdout.write(docs[0].text + "\n")
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        for d in docs:
            (args.out / d.filename).write_text(d.text, encoding="utf-8")
    print(f"{len(docs)} documents, ≥{args.chunks} chunks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
