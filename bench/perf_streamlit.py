"""`streamlit run app.py` to the first answered question, over Streamlit's own websocket.

No browser and no AppTest: spawn the server, poll `/_stcore/health`, open the
websocket a browser would open, request a script run (the page renders and the
cached facade loads), then send the chat input the way the browser does (a
`chat_input_value` widget state) and wait for the run that shows the answer.
XSRF protection is switched off for this loopback-only server.
"""

from __future__ import annotations

import subprocess
import time
import urllib.request
from pathlib import Path

from bench.common import PYTHON, ROOT, child_env
from tests.loopback import free_port, stop


def _texts(delta) -> list[str]:
    el = delta.new_element
    kind = el.WhichOneof("type")
    if kind == "markdown":
        return [el.markdown.body]
    if kind in ("alert", "text"):
        return [getattr(el, kind).body]
    return []


def _run(ws, back_msg, timeout: float) -> tuple[list, dict]:
    """Send one BackMsg, read ForwardMsgs until the script run finishes; (messages, new_session info)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    ws.send_binary(back_msg.SerializeToString())
    deadline = time.monotonic() + timeout
    msgs, session = [], {}
    while time.monotonic() < deadline:
        ws.settimeout(max(0.1, deadline - time.monotonic()))
        raw = ws.recv()
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            session["page_script_hash"] = msg.new_session.page_script_hash
        msgs.append(msg)
        if kind == "script_finished":
            return msgs, session
    raise TimeoutError("script run did not finish")


def measure_streamlit(data_dir: Path, question: str, timeout: float = 300) -> dict:
    import websocket
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    port = free_port()
    cmd = [PYTHON, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
           "--server.address", "127.0.0.1", "--server.port", str(port), "--server.enableXsrfProtection", "false",
           "--browser.gatherUsageStats", "false"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=child_env({"RAG_DATA_DIR": str(data_dir)}),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out: dict = {}
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.05)
            if time.perf_counter() - t0 > timeout:
                raise TimeoutError("health endpoint never answered")
        out["health_s"] = time.perf_counter() - t0
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"])
        try:
            first = BackMsg()
            first.rerun_script.query_string = ""
            msgs, session = _run(ws, first, timeout)
            out["first_page_s"] = time.perf_counter() - t0
            chat_id = next(m.delta.new_element.chat_input.id for m in msgs
                           if m.WhichOneof("type") == "delta" and m.delta.new_element.WhichOneof("type") == "chat_input")
            ask = BackMsg()
            ask.rerun_script.query_string = ""
            ask.rerun_script.page_script_hash = session.get("page_script_hash", "")
            ask.rerun_script.widget_states.widgets.append(WidgetState(id=chat_id))
            ask.rerun_script.widget_states.widgets[0].chat_input_value.data = question
            msgs, _ = _run(ws, ask, timeout)
            out["first_answer_s"] = time.perf_counter() - t0
            texts = [t for m in msgs if m.WhichOneof("type") == "delta" for t in _texts(m.delta)]
            asked = [i for i, t in enumerate(texts) if question in t]
            after = [t for t in texts[asked[0] + 1 :] if t.strip()] if asked else []
            if not after:
                raise RuntimeError("no answer rendered after the question")
            out["answer_excerpt"] = after[0].replace("\n", " ")[:40]
        finally:
            ws.close()
        return out
    finally:
        stop(proc)
