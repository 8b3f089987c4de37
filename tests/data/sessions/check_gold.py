#!/usr/bin/env python3
"""Check the gold of the HR chat-session sets against the policy texts.

Usage:  python3 tests/data/sessions/check_gold.py

Checks tests/data/sessions/open.jsonl in detail (every failure is printed, then
counts per kind and per corpus) and, if present, tests/data/sessions/sealed/*.jsonl
(only pass/fail counts are printed, so the sealed questions are not shown) and
tests/data/sessions/fresh/*.jsonl and switches/*.jsonl (validation parts: per session only pass or
fail with a problem count, then counts per failure type; no question or gold text
is printed).

Corpus names: "samples" (data/samples), "real/<dir>" (tests/data/real/<dir>/policies)
and "fresh/<name>" (tests/data/sessions/fresh/corpora/<name>).

What is checked, per session:
  * id / corpus / turns present; corpus folder exists; 5-10 turns;
  * an upload turn names an existing file (relative to tests/data/sessions/, or to
    the .jsonl's own folder); from that turn on the file counts as part of the store;
  * every "expected" substring (1-3 of them, 10-40 characters) and every "lead"
    (6-30 characters) is found verbatim in one line of a corpus .md file or of a file
    uploaded earlier in the session -- the same thing `grep -F` does -- and holds no
    markdown the parser drops (**, __, a table's " | "): such a string never matches;
  * after_upload: at least one expected substring is in a file uploaded earlier in
    that session, and there was an upload before it;
  * followup: 1-3 non-empty must_contain words;
  * statement: "remember" is a substring of what was said;
  * personal: "memory" is a substring of an earlier statement of the same session;
  * trap / absent (and any turn with refuse): refuse is true and there is no expected;
    a note written as "未提及：A、B" is checked too: A and B must not occur anywhere in
    the store at that point.
No engine code is used; this only reads the .md texts.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
KINDS = {"new_topic", "followup", "statement", "personal", "after_upload", "trap", "absent"}


def corpus_dir(corpus):
    if corpus == "samples":
        return os.path.join(REPO, "data", "samples")
    if corpus.startswith("real/"):
        return os.path.join(REPO, "tests", "data", "real", corpus[len("real/"):], "policies")
    if corpus.startswith("fresh/"):
        return os.path.join(HERE, "fresh", "corpora", corpus[len("fresh/"):])
    if corpus.startswith("sealed/"):
        return os.path.join(HERE, "sealed", "corpora", corpus[len("sealed/"):])
    return None


_cache = {}


def read(path):
    if path not in _cache:
        with open(path, encoding="utf-8") as f:
            _cache[path] = f.read()
    return _cache[path]


# Markdown the parser does not keep: emphasis marks, and a table row's cell separators (a table is read as
# 列名：值 records). A gold string holding them never occurs in the ingested text.
MARKUP = ("**", "__", " | ")


def markup(sub):
    return [m for m in MARKUP if m in sub]


_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^[\s|:-]+$")


def as_read(text):
    """The lines as the parser keeps them: emphasis marks dropped, and each table row under its header row
    read as one record (工龄：入职1-5年，年假天数：7天)."""
    lines, header = [], None
    for line in text.replace("**", "").replace("__", "").split("\n"):
        row = _ROW.match(line)
        if not row:
            header = None
            lines.append(line)
        elif _RULE.match(line):
            continue
        elif header is None:
            header = [c.strip() for c in row.group(1).split("|")]
            lines.append(line)
        else:
            cells = [c.strip() for c in row.group(1).split("|")]
            lines.append("，".join(f"{h}：{c}" for h, c in zip(header, cells) if c))
    return lines


def found_in(sub, paths):
    """grep -F semantics on the text as read (`as_read`): the substring occurs inside one line of one file."""
    hits = []
    for p in paths:
        if any(sub in line for line in as_read(read(p))):
            hits.append(p)
    return hits


def check_session(sess, jsonl_dir):
    errs = []
    sid = sess.get("id", "?")
    corpus = sess.get("corpus")
    turns = sess.get("turns")
    if not isinstance(turns, list) or not corpus:
        return [f"{sid}: missing corpus or turns"], {}
    cdir = corpus_dir(corpus)
    if not cdir or not os.path.isdir(cdir):
        return [f"{sid}: unknown corpus {corpus}"], {}
    # SOURCE.md / README.md next to the texts (fresh/corpora/<name>/) are documentation
    base = sorted(p for p in glob.glob(os.path.join(cdir, "*.md"))
                  if os.path.basename(p) not in ("SOURCE.md", "README.md"))
    if not base:
        errs.append(f"{sid}: corpus {corpus} has no .md files")
    if not 5 <= len(turns) <= 10:
        errs.append(f"{sid}: {len(turns)} turns (want 5-10)")
    uploads = []
    statements = []
    kinds = {}
    for i, t in enumerate(turns, 1):
        where = f"{sid} turn {i}"
        if "upload" in t:
            rel = t["upload"]
            cands = [os.path.join(HERE, rel), os.path.join(jsonl_dir, rel)]
            path = next((c for c in cands if os.path.isfile(c)), None)
            if not path:
                errs.append(f"{where}: upload {rel} not found")
            else:
                uploads.append(path)
            kinds["upload"] = kinds.get("upload", 0) + 1
            continue
        kind = t.get("kind")
        say = t.get("say", "")
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind not in KINDS:
            errs.append(f"{where}: unknown kind {kind!r}")
            continue
        if not say.strip():
            errs.append(f"{where}: empty say")
        store = base + uploads
        exp = t.get("expected")
        refuse = t.get("refuse") is True
        if kind in ("trap", "absent") and not refuse:
            errs.append(f"{where}: {kind} without refuse: true")
        if refuse and exp:
            errs.append(f"{where}: both refuse and expected")
        if kind in ("new_topic", "followup", "personal", "after_upload") and not exp and not refuse:
            errs.append(f"{where}: {kind} needs expected (or refuse)")
        if exp is not None:
            if not isinstance(exp, list) or not 1 <= len(exp) <= 3:
                errs.append(f"{where}: expected must be a list of 1-3 strings")
                exp = exp if isinstance(exp, list) else []
            for e in exp:
                if not 10 <= len(e) <= 40:
                    errs.append(f"{where}: expected {e!r} is {len(e)} chars (want 10-40)")
                if not found_in(e, store):
                    errs.append(f"{where}: expected {e!r} not found")
                if markup(e):
                    errs.append(f"{where}: expected {e!r} holds markdown the parser drops: {markup(e)}")
            if kind == "after_upload":
                if not uploads:
                    errs.append(f"{where}: after_upload with no earlier upload")
                elif not any(found_in(e, uploads) for e in exp):
                    errs.append(f"{where}: no expected substring is in an uploaded file")
        lead = t.get("lead")
        if lead is not None:
            if not 6 <= len(lead) <= 30:
                errs.append(f"{where}: lead {lead!r} is {len(lead)} chars (want 6-30)")
            if not found_in(lead, store):
                errs.append(f"{where}: lead {lead!r} not found")
            if markup(lead):
                errs.append(f"{where}: lead {lead!r} holds markdown the parser drops: {markup(lead)}")
        if kind == "followup":
            mc = t.get("must_contain")
            if not isinstance(mc, list) or not 1 <= len(mc) <= 3 or not all(isinstance(w, str) and w for w in mc):
                errs.append(f"{where}: followup needs 1-3 must_contain words")
        if kind == "statement":
            rem = t.get("remember")
            if not rem or rem not in say:
                errs.append(f"{where}: remember {rem!r} is not part of the statement")
            statements.append(say)
        if kind == "personal":
            mem = t.get("memory")
            if not mem or not any(mem in s for s in statements):
                errs.append(f"{where}: memory {mem!r} is not in an earlier statement")
        note = t.get("note", "")
        m = re.search(r"未提及[：:]\s*([^（(]+)", note)
        if m and refuse:
            for term in re.split(r"[、，,]\s*", m.group(1).strip()):
                if term and found_in(term, store):
                    errs.append(f"{where}: '{term}' is said to be absent but occurs in "
                                + ", ".join(os.path.basename(p) for p in found_in(term, store)))
    return errs, kinds


def load(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as e:
                    out.append({"id": f"{os.path.basename(path)}:{n}", "_bad": str(e)})
    return out


FAILURE_TYPES = [  # most specific first
    ("bad JSON", "bad JSON"),
    ("duplicate id", "duplicate id"),
    ("unknown corpus", "unknown corpus"),
    ("missing corpus or turns", "missing corpus or turns"),
    ("has no .md files", "empty corpus"),
    (" turns (want 5-10)", "turn count"),
    ("after_upload with no earlier upload", "after_upload before any upload"),
    ("no expected substring is in an uploaded file", "after_upload gold not in upload"),
    ("said to be absent", "absent term occurs in store"),
    ("unknown kind", "unknown kind"),
    ("empty say", "empty say"),
    ("without refuse", "trap/absent without refuse"),
    ("both refuse and expected", "refuse with expected"),
    ("needs expected", "missing expected"),
    ("expected must be a list", "expected not a list of 1-3"),
    ("chars (want 10-40)", "expected length"),
    ("chars (want 6-30)", "lead length"),
    (": upload ", "upload not found"),
    ("' not found", "gold substring not found"),
    ("must_contain", "followup must_contain"),
    ("remember", "statement remember"),
    ("memory", "personal memory"),
]


def failure_type(err):
    for needle, name in FAILURE_TYPES:
        if needle in err:
            return name
    return "other"


def run_quiet(path):
    """Check a hidden set: return per-session (id, n_problems) and failure-type counts."""
    per = []
    types = {}
    seen_ids = set()
    for n, s in enumerate(load(path), 1):
        sid = s.get("id") if isinstance(s.get("id"), str) else f"#{n}"
        if "_bad" in s:
            errs = [f"bad JSON ({s['_bad']})"]
        else:
            errs, _ = check_session(s, os.path.dirname(path))
            if s.get("id") in seen_ids:
                errs.append("duplicate id")
            seen_ids.add(s.get("id"))
        for e in errs:
            t = failure_type(e)
            types[t] = types.get(t, 0) + 1
        per.append((sid, len(errs)))
    return per, types


def run(path, verbose):
    sessions = load(path)
    bad_sessions = 0
    n_err = 0
    kinds_total = {}
    corpora = {}
    seen_ids = set()
    for s in sessions:
        if "_bad" in s:
            errs = [f"{s['id']}: bad JSON ({s['_bad']})"]
            kinds = {}
        else:
            errs, kinds = check_session(s, os.path.dirname(path))
            if s.get("id") in seen_ids:
                errs.append(f"{s.get('id')}: duplicate id")
            seen_ids.add(s.get("id"))
        for k, v in kinds.items():
            kinds_total[k] = kinds_total.get(k, 0) + v
        c = s.get("corpus", "?")
        corpora.setdefault(c, [0, 0])
        corpora[c][0] += 1
        corpora[c][1] += sum(v for k, v in kinds.items() if k != "upload")
        if errs:
            bad_sessions += 1
            n_err += len(errs)
            if verbose:
                for e in errs:
                    print("FAIL", e)
    return sessions, bad_sessions, n_err, kinds_total, corpora


def main():
    ok = True
    open_path = os.path.join(HERE, "open.jsonl")
    if os.path.isfile(open_path):
        sessions, bad, n_err, kinds, corpora = run(open_path, verbose=True)
        turns = sum(v for k, v in kinds.items())
        utt = sum(v for k, v in kinds.items() if k != "upload")
        print(f"open.jsonl: {len(sessions)} sessions, {turns} turns ({utt} utterances + "
              f"{kinds.get('upload', 0)} uploads); {len(sessions) - bad} sessions pass, "
              f"{bad} fail ({n_err} problems)")
        for k in ["new_topic", "followup", "statement", "personal", "after_upload", "trap", "absent", "upload"]:
            print(f"  {k:13s} {kinds.get(k, 0)}")
        for c, (ns, nu) in sorted(corpora.items()):
            print(f"  {c:28s} {ns} sessions, {nu} utterances")
        ok = ok and bad == 0
    else:
        print("open.jsonl: missing")
        ok = False
    for path in sorted(glob.glob(os.path.join(HERE, "sealed", "*.jsonl"))):
        sessions, bad, n_err, _, _ = run(path, verbose=False)
        print(f"sealed/{os.path.basename(path)}: {len(sessions) - bad} sessions pass, {bad} fail")
        ok = ok and bad == 0
    # fresh/: validation part. Only aggregate figures are printed: per session pass or
    # fail with a problem count, then problem counts per failure type.
    # switches/ (stop 58) is a validation part too: the same aggregate-only report.
    for path in sorted(glob.glob(os.path.join(HERE, "fresh", "*.jsonl")) + glob.glob(os.path.join(HERE, "switches", "*.jsonl"))):
        per, types = run_quiet(path)
        bad = sum(1 for _, n in per if n)
        part = os.path.basename(os.path.dirname(path))
        print(f"{part}/{os.path.basename(path)}: {len(per) - bad} sessions pass, {bad} fail")
        for sid, n in per:
            print(f"  {sid:12s} " + ("pass" if n == 0 else f"FAIL ({n} problems)"))
        for t, n in sorted(types.items()):
            print(f"  failure type {t}: {n}")
        ok = ok and bad == 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
