# SPDX-License-Identifier: MIT
# /usr/bin/python3 firefox_view.py PAGE.html OUT.png: opens PAGE (from the disk) in Debian's firefox-esr,
# headless, with a fresh profile whose proxy is a dead port (no request can leave), through WebDriver
# BiDi (Firefox's remote protocol; python3-websocket), waits until the ltt viewer says it is ready,
# takes a screenshot (1200x800) and prints one line per lane name ("lane NAME") and "ready" (or the
# page's error). Exit 1 when Firefox or the page fails. Used by tests/e2e/export_html.sh.
import base64, json, os, socket, subprocess, sys, tempfile, time
import websocket

page, out = os.path.abspath(sys.argv[1]), sys.argv[2]
prof = tempfile.mkdtemp(prefix="ltt-ff-")
with open(os.path.join(prof, "user.js"), "w") as f:
    for k, v in (("network.proxy.type", 1), ("network.proxy.http", '"127.0.0.1"'),
                 ("network.proxy.http_port", 9), ("network.proxy.ssl", '"127.0.0.1"'),
                 ("network.proxy.ssl_port", 9), ("app.update.enabled", "false"),
                 ("datareporting.policy.dataSubmissionEnabled", "false"),
                 ("toolkit.telemetry.enabled", "false"), ("browser.shell.checkDefaultBrowser", "false")):
        f.write(f"user_pref(\"{k}\", {v});\n")
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
env = dict(os.environ, HOME=prof, MOZ_CRASHREPORTER_DISABLE="1")
ff = subprocess.Popen(["firefox-esr", "--headless", "--no-remote", "--profile", prof,
                       "--window-size=1200,800", f"--remote-debugging-port={port}", "about:blank"],
                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ws, n = None, 0
try:
    for _ in range(600):
        try:
            ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=60,
                                             suppress_origin=True)
            break
        except Exception:
            if ff.poll() is not None:
                sys.exit("firefox-esr exited at start")
            time.sleep(0.1)
    if ws is None:
        sys.exit("no WebDriver BiDi session from firefox-esr")

    def call(method, params):
        global n
        n += 1
        ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            m = json.loads(ws.recv())
            if m.get("id") == n:
                if m.get("type") == "error" or "error" in m:
                    raise RuntimeError(f"{method}: {m.get('error')}: {m.get('message')}")
                return m["result"]

    call("session.new", {"capabilities": {}})
    ctx = call("browsingContext.getTree", {})["contexts"][0]["context"]
    call("browsingContext.setViewport", {"context": ctx, "viewport": {"width": 1200, "height": 800}})
    call("browsingContext.navigate", {"context": ctx, "url": "file://" + page, "wait": "complete"})

    def ev(expr):
        r = call("script.evaluate", {"expression": expr, "target": {"context": ctx}, "awaitPromise": False})
        if r.get("type") == "exception":
            raise RuntimeError(f"{expr}: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    for _ in range(600):
        st = ev("JSON.stringify(window.lttView ? (window.lttView.error || !!window.lttView.ready) : false)")
        if st != "false":
            break
        time.sleep(0.1)
    if st != "true":
        print("page:", st)
        sys.exit(1)
    time.sleep(0.5)	# the first animation frames
    png = call("browsingContext.captureScreenshot", {"context": ctx})["data"]
    with open(out, "wb") as f:
        f.write(base64.b64decode(png))
    for name in json.loads(ev("JSON.stringify(window.lttView.lanes())")):
        print("lane", name)
    print("ready")
finally:
    try:
        if ws:
            call("session.end", {})
    except Exception:
        pass
    ff.kill()
    ff.wait()
    subprocess.run(["rm", "-rf", prof])
