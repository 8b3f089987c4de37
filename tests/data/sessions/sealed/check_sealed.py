#!/usr/bin/env python3
"""Checks sealed.jsonl against the policy files (no engine involved).

Run:  python3 tests/data/sessions/sealed/check_sealed.py
Prints only the failures and the aggregate counts (never the questions), so it
can be run by anyone without reading the sealed turns. Exit code 1 on failure.

Checks:
- format: id, corpus, turns; every turn is an upload event or an utterance of a
  known kind with the gold fields that kind needs;
- every upload path exists under tests/data/sessions/;
- every "expected" (10-40 chars) and "lead" (6-30 chars) substring occurs verbatim
  (like grep -F) in a .md of the session's corpus or in a file uploaded earlier in
  the same session; for after_upload turns, in an uploaded file;
- "remember" is a substring of its statement, "memory" a substring of an earlier
  statement of the same session;
- trap/absent turns have refuse: true and no expected; the topic words listed in
  REFUSE_TERMS below occur in none of the files the store holds at that turn;
- minimum counts per kind over the whole set.
"""
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SESSIONS = HERE.parent                      # tests/data/sessions
DATA = SESSIONS.parent                      # tests/data
REPO = DATA.parent.parent

KINDS = {"new_topic", "followup", "statement", "personal", "after_upload", "trap", "absent"}
MINIMUM = {"followup": 20, "new_topic": 25, "statement": 6, "personal": 6,
           "trap": 10, "absent": 8, "after_upload": 10, "upload": 5}

# Words that name the thing a trap/absent turn asks about; none may occur in the
# store at that turn (keyed by session id and turn index, 0-based).
REFUSE_TERMS = {
    ("sealed-01", 3): ["试用期延长", "延长试用期"],
    ("sealed-01", 8): ["公积金", "房租"],
    ("sealed-02", 1): ["一年内"],
    ("sealed-02", 8): ["奖励费标准", "元奖励费"],
    ("sealed-02", 9): ["积分", "居住证", "入学"],
    ("sealed-03", 9): ["个人所得税", "个税", "纳税", "计税"],
    ("sealed-04", 6): ["仲裁费"],
    ("sealed-04", 8): ["搬迁"],
    ("sealed-05", 4): ["百分之一", "%"],
    ("sealed-06", 5): ["违法用工"],
    ("sealed-06", 9): ["首付"],
    ("sealed-07", 6): ["几号", "每月15日"],
    ("sealed-07", 8): ["宿舍", "住宿"],
    ("sealed-08", 7): ["元/月", "每月最低工资"],
    ("sealed-08", 8): ["试用期"],
    ("sealed-09", 6): ["合同期限为", "年合同"],
    ("sealed-09", 7): ["体检"],
    ("sealed-10", 7): ["路费", "路程"],
    ("sealed-10", 8): ["宿舍"],
    ("sealed-11", 8): ["家属", "家里人", "亲属乘车"],
    ("sealed-11", 9): ["落户", "户口"],
    ("sealed-12", 6): ["经济补偿", "补偿金"],
    ("sealed-13", 6): ["家属"],
    ("sealed-13", 7): ["班车", "通勤车"],
    ("sealed-14", 7): ["超市", "便利店", "外部商户", "消费场所"],
    ("sealed-14", 8): ["生日"],
}


def corpus_dir(name):
    if name == "samples":
        return REPO / "data" / "samples"
    if name.startswith("real/"):
        return DATA / "real" / name[5:] / "policies"
    if name.startswith("sealed/"):
        return HERE / "corpora" / name[7:]
    return None


def main():
    errors = []
    kinds = Counter()
    per_corpus = Counter()
    per_corpus_turns = Counter()
    n_turns = 0
    ids = set()
    lines = (HERE / "sealed.jsonl").read_text(encoding="utf-8").splitlines()
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        s = json.loads(line)
        sid = s.get("id")
        if set(s) != {"id", "corpus", "turns"}:
            errors.append(f"line {ln}: keys {sorted(s)}")
        if sid in ids:
            errors.append(f"{sid}: duplicate id")
        ids.add(sid)
        cdir = corpus_dir(s.get("corpus", ""))
        if cdir is None or not cdir.is_dir():
            errors.append(f"{sid}: unknown corpus {s.get('corpus')}")
            continue
        per_corpus[s["corpus"]] += 1
        corpus_texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(cdir.glob("*.md"))}
        uploads = {}
        statements = []
        turns = s["turns"]
        if not 6 <= len(turns) <= 10:
            errors.append(f"{sid}: {len(turns)} turns (want 6-10)")
        for i, t in enumerate(turns):
            where = f"{sid} turn {i}"
            n_turns += 1
            per_corpus_turns[s["corpus"]] += 1
            if "upload" in t:
                kinds["upload"] += 1
                rel = t["upload"]
                p = SESSIONS / rel
                if set(t) != {"upload"} or not rel.startswith("sealed/uploads/") or not p.is_file():
                    errors.append(f"{where}: bad upload {rel}")
                else:
                    uploads[p.name] = p.read_text(encoding="utf-8")
                continue
            kind = t.get("kind")
            if kind not in KINDS or not isinstance(t.get("say"), str) or not t["say"].strip():
                errors.append(f"{where}: bad kind/say")
                continue
            kinds[kind] += 1
            store = dict(corpus_texts)
            store.update({"upload:" + k: v for k, v in uploads.items()})
            search_in = {"upload:" + k: v for k, v in uploads.items()} if kind == "after_upload" else store
            if kind == "after_upload" and not uploads:
                errors.append(f"{where}: after_upload before any upload")
            need = {
                "new_topic": {"expected"}, "followup": {"must_contain", "expected"},
                "statement": {"remember"}, "personal": {"memory", "expected"},
                "after_upload": {"expected"}, "trap": {"refuse"}, "absent": {"refuse"},
            }[kind]
            allowed = need | {"say", "kind", "lead"}
            missing = need - set(t)
            extra = set(t) - allowed
            if missing or extra:
                errors.append(f"{where}: missing {sorted(missing)} extra {sorted(extra)}")
            if kind in ("trap", "absent"):
                if t.get("refuse") is not True or "expected" in t or "lead" in t:
                    errors.append(f"{where}: {kind} must have refuse true and no expected/lead")
                terms = REFUSE_TERMS.get((sid, i))
                if not terms:
                    errors.append(f"{where}: no REFUSE_TERMS entry")
                for w in terms or []:
                    hits = [k for k, v in store.items() if w in v]
                    if hits:
                        errors.append(f"{where}: refuse term {w!r} found in {hits}")
                continue
            if kind == "statement":
                if t["remember"] not in t["say"]:
                    errors.append(f"{where}: remember not in say")
                statements.append(t["say"])
                continue
            if kind == "personal" and not any(t["memory"] in st for st in statements):
                errors.append(f"{where}: memory not in an earlier statement")
            if kind == "followup":
                mc = t["must_contain"]
                if not (isinstance(mc, list) and 1 <= len(mc) <= 3 and all(isinstance(w, str) and 0 < len(w) <= 8 for w in mc)):
                    errors.append(f"{where}: bad must_contain")
            exp = t.get("expected")
            if not (isinstance(exp, list) and 1 <= len(exp) <= 3):
                errors.append(f"{where}: expected must be a list of 1-3")
                exp = []
            for e in exp:
                if not 10 <= len(e) <= 40:
                    errors.append(f"{where}: expected length {len(e)}: not 10-40")
                if not any(e in v for v in search_in.values()):
                    errors.append(f"{where}: expected not found verbatim")
            if "lead" in t:
                lead = t["lead"]
                if not 6 <= len(lead) <= 30:
                    errors.append(f"{where}: lead length {len(lead)}: not 6-30")
                if not any(lead in v for v in search_in.values()):
                    errors.append(f"{where}: lead not found verbatim")
    for k, n in MINIMUM.items():
        if kinds[k] < n:
            errors.append(f"only {kinds[k]} {k} (want >= {n})")
    if len(ids) < 12:
        errors.append(f"only {len(ids)} sessions (want >= 12)")
    if n_turns < 100:
        errors.append(f"only {n_turns} turns (want >= 100)")

    print(f"sessions: {len(ids)}  turns: {n_turns}  utterances: {n_turns - kinds['upload']}")
    print("per kind: " + ", ".join(f"{k} {kinds[k]}" for k in
          ["new_topic", "followup", "statement", "personal", "after_upload", "trap", "absent", "upload"]))
    print("per corpus (sessions/turns): " + ", ".join(
        f"{c} {per_corpus[c]}/{per_corpus_turns[c]}" for c in sorted(per_corpus)))
    for e in errors:
        print("FAIL", e)
    print("OK" if not errors else f"{len(errors)} failure(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
