"""Load through the real server: N headless Chromium sessions against one `streamlit run app.py`.

One server on a free 127.0.0.1 port over a data dir of its own (a fresh temp dir whose
samples the server indexes on first start, or a copy of `--store`), in team mode: N
employee accounts plus one HR account (and one warm-up account). Then ONE Chromium
process with N contexts: each opens the page, logs in through the login form, and asks
K questions from tests/data/eval.jsonl in one conversation, waiting for each answer to
finish; with `--upload` the HR context uploads a small policy on 文档管理 meanwhile.

"Answer finished" is the DOM signal the browser tests use: the turn is redrawn from the
store with its 👍/👎 (`stFeedback` count reaches the turn number); a 回答失败 alert or a
Streamlit exception is an error. Time to answer is from pressing Enter to that signal.

Afterwards the data dir is read through the facade: every answer a browser saw must be a
stored turn of that person's conversation, and the upload must be a listed document
("lost" otherwise). Server CPU is read from /proc/<pid>/stat (utime+stime+cutime+cstime
of the streamlit process and its live descendants) before and after the sessions, since
the browsers share the machine and wall time alone misleads. The server's own question
handling is the p50 of the stored trace timings (rewrite + search + memory + answer +
write-back). `--profile OUT` attaches py-spy (if installed) to the server for the timed
part and prints where its CPU went.

Only 127.0.0.1 is contacted; every wait has a timeout; the server, py-spy and the
browser are stopped in `finally` (Ctrl-C too).

    .venv/bin/python bench/load_browser.py --sessions 8 --questions 5 --upload
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PYTHON, ROOT, child_env, fmt, load_average, percentile, questions, table  # noqa: E402
from tests.loopback import free_port, stop  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
PASSWORD = "load-test-password"
HR_USER = "load_hr"
WARMUP_USER = "load_warmup"
LOGIN_HEADING = "登录 · HR 制度助手"
STARTUP_TIMEOUT_S = 180  # until /_stcore/health answers
INDEX_TIMEOUT_S = 1200  # first page: loads the model and indexes the samples on a fresh store
ASK_PARTS = ("rewrite_ms", "total_ms", "memory_ms", "answer_ms", "write_back_ms")  # total_ms: the search
# the turn is done when redrawn from the store with its 👍/👎; an error alert or exception ends the wait too
FINISHED_JS = """n => document.querySelectorAll('[data-testid="stFeedback"]').length >= n
  || !!document.querySelector('[data-testid="stException"]')
  || Array.from(document.querySelectorAll('[data-testid="stAlert"]')).some(e => e.textContent.includes('回答失败'))"""


@dataclass
class Session:
    user: str
    questions: list[str]
    page_load_s: float | None = None
    login_s: float | None = None
    answer_s: list[float] = field(default_factory=list)  # one per answer seen finished
    errors: list[str] = field(default_factory=list)
    upload: str | None = None  # the uploaded file's name (the HR session)
    upload_s: float | None = None
    upload_ok: bool = False


# -- the server's CPU from /proc -------------------------------------------------------
def _stat(pid: int) -> tuple[int, list[str]] | None:
    """(ppid, fields after the command) of /proc/<pid>/stat, or None when the process is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    rest = raw[raw.rfind(")") + 2:].split()  # fields 3.. (the command may contain spaces)
    return int(rest[1]), rest


def tree_pids(root: int) -> list[int]:
    """`root` and its live descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            children.setdefault(st[0], []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_seconds(root: int, exclude: set[int] = frozenset()) -> float:
    """utime+stime+cutime+cstime (/proc/<pid>/stat fields 14–17, clock ticks) over `root`'s process tree."""
    ticks = 0
    for pid in tree_pids(root):
        if pid in exclude or (st := _stat(pid)) is None:
            continue
        fields = st[1]  # fields[0] is field 3 (state): field 14 is fields[11]
        ticks += sum(int(v) for v in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


# -- setting up ---------------------------------------------------------------------
def open_facade(store: Path):
    from rag_core.assistant import Assistant

    facade = Assistant.open(data_dir=store, env_file=None)
    facade.act_as_local_administrator()  # as the CLI does: the data dir's owner
    return facade


def create_accounts(store: Path, employees: list[str]) -> None:
    """Team mode: an administrator (the first account must be one), one HR account, the warm-up account and the
    employees (the CLI's local administrator adds them)."""
    facade = open_facade(store)
    try:
        facade.add_user("load_admin", "admin", PASSWORD)
        facade.add_user(HR_USER, "hr", PASSWORD)
        for name in [WARMUP_USER, *employees]:
            facade.add_user(name, "employee", PASSWORD)
    finally:
        facade.catalog.close()


def rss_mib(root: int) -> float:
    """Resident memory of `root`'s process tree (VmRSS from /proc/<pid>/status), in MiB."""
    kib = 0
    for pid in tree_pids(root):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kib += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return kib / 1024


def start_server(store: Path, workdir: Path, options: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str, Path]:
    port = free_port()
    log = workdir / "streamlit.log"
    env = child_env({"RAG_DATA_DIR": str(store), "LLM_API_KEY": "", "LLM_MODEL_ID": ""})
    cmd = [PYTHON, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
           *(part for option in options for part in (f"--{option.partition('=')[0]}", option.partition("=")[2]))]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url, log
        except OSError:
            pass
        time.sleep(0.5)
    stop(proc)
    raise TimeoutError(f"streamlit not healthy after {STARTUP_TIMEOUT_S}s")


# -- one browser context ------------------------------------------------------------------
async def wait_idle(page, timeout_s: float) -> None:
    """Until Streamlit finished the current script run (no running indicator)."""
    await page.wait_for_timeout(300)
    await page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=timeout_s * 1000)


async def open_and_log_in(page, url: str, s: Session, timeout_s: float) -> None:
    t0 = time.perf_counter()
    await page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
    await page.get_by_label("用户名").wait_for(timeout=timeout_s * 1000)
    s.page_load_s = time.perf_counter() - t0
    await page.get_by_label("用户名").fill(s.user)
    await page.get_by_label("密码").fill(PASSWORD)
    t0 = time.perf_counter()
    await page.get_by_role("button", name="登录").click()
    await page.get_by_test_id("stChatInputTextArea").wait_for(timeout=timeout_s * 1000)
    s.login_s = time.perf_counter() - t0
    await wait_idle(page, timeout_s)


async def ask_all(page, s: Session, timeout_s: float) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    for n, question in enumerate(s.questions, start=1):
        await box.wait_for(timeout=timeout_s * 1000)
        await box.fill(question)
        t0 = time.perf_counter()
        await box.press("Enter")
        await page.wait_for_function(FINISHED_JS, arg=n, timeout=timeout_s * 1000, polling=100)
        elapsed = time.perf_counter() - t0
        if await page.get_by_test_id("stFeedback").count() < n:
            alert = page.get_by_test_id("stException").or_(page.get_by_test_id("stAlert").filter(has_text="回答失败"))
            s.errors.append(f"question {n}: {(await alert.first.inner_text())[:200]}")
            return
        s.answer_s.append(elapsed)
        await wait_idle(page, timeout_s)  # typing the next question earlier would interrupt the redraw


async def upload_policy(page, s: Session, path: Path, timeout_s: float) -> None:
    await page.get_by_test_id("stSidebar").get_by_role("link").filter(has_text="文档管理").first.click()
    await page.get_by_role("heading", name="文档管理").wait_for(timeout=timeout_s * 1000)
    await wait_idle(page, timeout_s)
    t0 = time.perf_counter()
    await page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    await page.get_by_test_id("stFileChipName").first.wait_for(timeout=timeout_s * 1000)
    await page.get_by_test_id("stFileChipIconSpinner").wait_for(state="detached", timeout=timeout_s * 1000)
    await page.get_by_role("button", name="开始导入").click()
    # done: the report line (本次导入：…) or the bar's 导入结束; a long-ingest estimate asks 确认导入 first
    report = page.get_by_test_id("stMarkdownContainer").filter(has_text="本次导入：")
    finished = page.get_by_text("导入结束")
    confirm = page.get_by_role("button", name="确认导入")
    await report.or_(finished).or_(confirm).first.wait_for(timeout=timeout_s * 1000)
    if await confirm.count():
        await confirm.first.click()
        await report.or_(finished).first.wait_for(timeout=timeout_s * 1000)
    s.upload_s = time.perf_counter() - t0
    await wait_idle(page, timeout_s)
    text = (await report.first.inner_text()) if await report.count() else ""
    failed = await page.get_by_test_id("stAlert").filter(has_text=path.name).count()
    s.upload_ok = bool(re.search(r"成功 1 个", text)) or (not text and not failed)
    if not s.upload_ok:
        s.errors.append(f"upload: {text[:200] or 'refused'}")


async def run_session(browser, url: str, s: Session, timeout_s: float, upload: Path | None = None,
                      shots: Path | None = None) -> None:
    context = page = None
    try:
        context = await browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        page = await context.new_page()
        await open_and_log_in(page, url, s, timeout_s)
        if upload is not None:
            s.upload = upload.name
            await upload_policy(page, s, upload, timeout_s)
        await ask_all(page, s, timeout_s)
    except Exception as exc:  # a timeout or a broken page: counted, the other sessions go on
        s.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}")
        if shots is not None and page is not None:
            try:
                await page.screenshot(path=str(shots / f"{s.user}.png"), full_page=True, timeout=30_000)
            except Exception:  # the screenshot is a diagnosis only
                pass
    finally:
        if context is not None:
            await context.close()


async def drive(url: str, sessions: list[Session], upload: Path | None, timeout_s: float,
                on_ready, on_done, shots: Path | None = None) -> None:
    """Warm up (first page indexes the samples; one question loads the rest), then all sessions at once."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            warm = Session(WARMUP_USER, questions(1))
            await run_session(browser, url, warm, max(timeout_s, INDEX_TIMEOUT_S), shots=shots)
            if warm.errors:
                raise RuntimeError(f"warm-up failed: {warm.errors}")
            on_ready()
            jobs = [run_session(browser, url, s, timeout_s, upload if s.user == HR_USER else None, shots)
                    for s in sessions]
            await asyncio.gather(*jobs)
            on_done()
        finally:
            await browser.close()


# -- after the run: what the data dir kept ----------------------------------------------
def stored(store: Path, sessions: list[Session]) -> dict:
    facade = open_facade(store)
    try:
        turns: dict[str, int] = {}
        ask_ms: list[float] = []
        embed_ms: list[float] = []
        for s in sessions:
            turns[s.user] = 0
            for conv in facade.list_conversations(s.user):
                _conv, traces = facade.open_conversation(conv.id)
                turns[s.user] += len(traces)
                for trace in traces:
                    t = trace.search.timings_ms
                    ask_ms.append(sum(t.get(k, 0.0) for k in ASK_PARTS))
                    if "embed_ms" in t:
                        embed_ms.append(t["embed_ms"])
        names = {d.source.rsplit("/", 1)[-1] for d in facade.list_documents()} | {d.title for d in facade.list_documents()}
    finally:
        facade.catalog.close()
    return {"turns": turns, "ask_ms": ask_ms, "embed_ms": embed_ms, "documents": names}


# -- profile (py-spy) ---------------------------------------------------------------------
def start_profiler(pid: int, out: Path) -> subprocess.Popen | None:
    spy = shutil.which("py-spy") or str(Path(PYTHON).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy not installed: no profile (pip install py-spy into the venv to measure)", file=sys.stderr)
        return None
    cmd = [spy, "record", "--pid", str(pid), "--rate", "50", "--format", "raw", "--output", str(out), "--nonblocking"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_profiler(proc: subprocess.Popen | None) -> None:
    if proc is None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        stop(proc)


def _category(frames: list[str]) -> str:
    text = ";".join(frames)
    if "ask (rag_core/assistant.py" in text:
        return "engine: Assistant.ask (search, answer, write-back)"
    if "ingest" in text and "rag_core/" in text:
        return "engine: ingest (the upload)"
    if "argon2" in text or "login (rag_core" in text:
        return "login (argon2 password check)"
    if "rag_core/" in text:
        return "page script: other facade reads (conversations, history export, lists)"
    if "pages/" in text or "ui/" in text or "app.py" in text:
        return "page script: building Streamlit elements (pages/, ui/)"
    if "streamlit/" in text or "tornado/" in text:
        return "Streamlit server outside the script (session, websocket, protobuf, rerun bookkeeping)"
    return "other (interpreter, threads, GC)"


def profile_report(raw: Path, top: int = 12) -> str:
    """Share of on-CPU samples per category, and the functions with the most own samples."""
    cats: Counter = Counter()
    own: Counter = Counter()
    total = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        total += n
        cats[_category(frames)] += n
        leaf = re.sub(r"\s*\((/[^)]*/)?", " (", frames[-1])
        own[re.sub(r":\d+\)$", ")", leaf)] += n
    if not total:
        return "(no samples)"
    rows = [(c, n, 100 * n / total) for c, n in cats.most_common()]
    out = [f"py-spy: {total} on-CPU samples (50 Hz)", table(["where", "samples", "%"], rows), ""]
    out.append(table(["function (own samples)", "samples", "%"], [(f, n, 100 * n / total) for f, n in own.most_common(top)]))
    return "\n".join(out)


# -- the whole run ------------------------------------------------------------------------
def run_load(sessions: int = 20, questions_each: int = 5, *, upload: bool = False, store: Path | None = None,
             timeout_s: float = 900, profile: Path | None = None, keep: bool = False,
             options: tuple[str, ...] = ()) -> dict:
    """Start the server, drive the sessions, read back the store; a dict of every figure (see `report`)."""
    workdir = Path(tempfile.mkdtemp(prefix="load_browser_"))
    data = workdir / "store"
    if store is not None:
        shutil.copytree(store, data)
    pool = questions()
    employees = [f"load_emp{i:02d}" for i in range(1, sessions + 1)]
    plan = [Session(name, [pool[(i * questions_each + j) % len(pool)] for j in range(questions_each)])
            for i, name in enumerate(employees)]
    policy = None
    if upload:
        policy = workdir / f"load{int(time.time())}.md"
        policy.write_text("# 负载测试停车规定\n\n第一条 地下停车场车位优先分配给孕期员工。\n\n第二条 停车费每月300元。\n",
                          encoding="utf-8")
        plan.append(Session(HR_USER, []))
    create_accounts(data, employees)
    out: dict = {"sessions": sessions, "questions": questions_each, "upload": upload,
                 "load_before": load_average(), "workdir": str(workdir)}
    proc = spy = None
    mark: dict = {}
    try:
        proc, url, _log = start_server(data, workdir, options)

        def on_ready() -> None:
            nonlocal spy
            mark["cpu0"], mark["t0"] = cpu_seconds(proc.pid), time.perf_counter()
            out["load_start"] = load_average()
            if profile is not None:
                spy = start_profiler(proc.pid, profile)

        def on_done() -> None:
            mark["cpu1"], mark["t1"] = cpu_seconds(proc.pid), time.perf_counter()
            out["server_rss_mib"] = rss_mib(proc.pid)
            out["load_end"] = load_average()

        asyncio.run(drive(url, plan, policy, timeout_s, on_ready, on_done, workdir if keep else None))
    except BaseException:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
        raise
    finally:
        stop_profiler(spy)
        if proc is not None:
            stop(proc)
    kept = stored(data, plan)
    answers = [a for s in plan for a in s.answer_s]
    seen = {s.user: len(s.answer_s) for s in plan if s.user != HR_USER}
    lost = sum(max(0, n - kept["turns"].get(u, 0)) for u, n in seen.items())
    out.update({
        "expected": sessions * questions_each,
        "completed": len(answers),
        "errors": [f"{s.user}: {e}" for s in plan for e in s.errors],
        "wall_s": mark["t1"] - mark["t0"],
        "cpu_s": mark["cpu1"] - mark["cpu0"],
        "answer_p50": percentile(answers, 50),
        "answer_p95": percentile(answers, 95),
        "page_load_p50": percentile([s.page_load_s for s in plan if s.page_load_s is not None], 50),
        "login_p50": percentile([s.login_s for s in plan if s.login_s is not None], 50),
        "answers_lost": lost,
        "stored_not_seen": sum(max(0, kept["turns"].get(u, 0) - n) for u, n in seen.items()),
        "upload_ok": None if policy is None else any(s.upload_ok for s in plan),
        "upload_listed": None if policy is None else policy.name in kept["documents"],
        "upload_lost": None if policy is None else (any(s.upload_ok for s in plan) and policy.name not in kept["documents"]),
        "upload_s": next((s.upload_s for s in plan if s.upload_s is not None), None),
        "server_ask_p50_s": percentile(kept["ask_ms"], 50) / 1000,
        "embed_p50_ms": percentile(kept["embed_ms"], 50),
    })
    out["answers_per_s"] = out["completed"] / out["wall_s"] if out["wall_s"] else float("nan")
    out["cpu_per_answer"] = out["cpu_s"] / out["completed"] if out["completed"] else float("nan")
    if profile is not None and profile.exists():
        out["profile"] = profile_report(profile)
    if not keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return out


HEADERS = ["sessions", "answers", "errors", "lost", "answers/s", "p50 s", "p95 s", "page load p50 s",
           "server CPU-s / answer", "server ask p50 s", "embed p50 ms", "load avg (start → end)"]


def row(r: dict) -> list:
    lost = str(r["answers_lost"]) + ("" if r["upload_listed"] is None else f" (upload {'listed' if r['upload_listed'] else 'LOST'})")
    loads = f"{r['load_start'][0]:.1f} → {r['load_end'][0]:.1f}"
    return [r["sessions"], f"{r['completed']}/{r['expected']}", len(r["errors"]), lost, r["answers_per_s"],
            r["answer_p50"], r["answer_p95"], r["page_load_p50"], r["cpu_per_answer"], r["server_ask_p50_s"],
            r["embed_p50_ms"], loads]


def report(r: dict) -> str:
    lines = [table(HEADERS, [row(r)]), ""]
    lines.append(f"wall {fmt(r['wall_s'])} s for the timed part; server CPU {fmt(r['cpu_s'])} s; "
                 f"server memory after the sessions {fmt(r.get('server_rss_mib'))} MiB; "
                 f"login p50 {fmt(r['login_p50'])} s; stored turns not seen in a browser: {r['stored_not_seen']}")
    if r["upload"]:
        lines.append(f"upload: {'ok' if r['upload_ok'] else 'FAILED'} in {fmt(r['upload_s'])} s, "
                     f"{'listed' if r['upload_listed'] else 'not listed'} in the store")
    for e in r["errors"][:20]:
        lines.append(f"error: {e}")
    if "profile" in r:
        lines += ["", r["profile"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sessions", type=int, default=20, help="browser contexts, one employee each (default 20)")
    ap.add_argument("--questions", type=int, default=5, help="questions per session (default 5)")
    ap.add_argument("--upload", action="store_true", help="one HR context uploads a small policy meanwhile")
    ap.add_argument("--store", type=Path, help="copy this indexed data dir instead of indexing the samples afresh")
    ap.add_argument("--timeout", type=float, default=900, help="seconds any one wait may take (default 900)")
    ap.add_argument("--profile", type=Path, help="py-spy raw output file: profile the server during the sessions")
    ap.add_argument("--keep", action="store_true", help="keep the temp data dir and server log")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a streamlit run option for the server, e.g. runner.postScriptGC=false (repeatable)")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `timeout`/kill: the finally blocks still stop everything
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} missing", file=sys.stderr)
        return 2
    print(f"{os.cpu_count()} cores; load average at start {load_average()[0]:.2f} (other processes share this machine)")
    r = run_load(args.sessions, args.questions, upload=args.upload, store=args.store, timeout_s=args.timeout,
                 profile=args.profile, keep=args.keep, options=tuple(args.option))
    print(report(r))
    return 1 if r["errors"] or r["answers_lost"] or r["upload_lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
