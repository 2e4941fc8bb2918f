"""The status page in a real headless Chromium (docs/testing.md#the-status-page-in-a-real-browser).

A first `status-store run` only holds the embedded mock cluster, so that the service under test can be
stopped and started again on the same cluster and port; the statuses come from other processes
(fleet_writer: exactly 1,000 connectors x 8 tasks, the same mix every run; `status-store put`). The page
must show exactly those 1,000 rows and 8,000 task cells, load them in under 2 s, its FAILED filter must show exactly the connectors Connect's ?expand=status says have a FAILED
status, a status put by another process must show within 1 s without a reload, a hostile name and trace
must stay text, a task's history must show its transitions, and the page must reconnect after the
service restarts.

Usage: status_page_test.py STATUS_STORE_BINARY WORKDIR --fleet-writer FLEET_WRITER [--screenshot PNG]
       status_page_test.py STATUS_STORE_BINARY WORKDIR --screenshot PNG --screenshot-only
"""
import argparse
import re
import sys
import time
import urllib.parse

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from browser_lib import (Checks, StoreService, browser, click, connect_view, free_port, get_json, run_tool,
                         wait_until)

TOPIC = "ui-status"
CONNECTORS, TASKS = 1000, 8  # the "1,000 connectors x 8 tasks in under 2 s"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TRACE = "java.lang.IllegalStateException: </script><script>alert(2)</script>\n\tat <b>Evil</b>.poll(E.java:1)"

JS_ROW_STATES = """
  const row = [...document.querySelectorAll('#rows tr')].find((r) => r.dataset.name === arguments[0]);
  if (!row) return null;
  return [...row.querySelectorAll('button.task')].map((b) => [Number(b.dataset.task), b.dataset.state]);
"""


def put(args, cluster, target, state, generation=1, trace=None):
    cmd = ["put", *target, "--state", state, "--worker-id", "ui-test:8083", "--generation", str(generation),
           "--bootstrap-servers", cluster.bootstrap, "--topic", TOPIC, "--timeout", "30"]
    if trace is not None:
        cmd += ["--trace", trace]
    run_tool(args.binary, *cmd)


def page_has_state(driver, name, task, state):
    rows = driver.execute_script(JS_ROW_STATES, name)
    return rows is not None and [task, state] in rows


def show_only(driver, name):
    """Types `name` into the name filter (shows that connector alone, and any containing it)."""
    driver.execute_script("const b = document.getElementById('name-filter'); b.value = arguments[0];"
                          "b.dispatchEvent(new Event('input'));", name)


def load_demo(args, cluster, service, connectors, tasks, rate, duration):
    """The demo's workload (random steps, deletions among them): for the screenshot only."""
    run_tool(args.binary, "demo", "--connectors", str(connectors), "--tasks", str(tasks), "--duration", str(duration),
             "--rate", str(rate), "--outage", "0", "--seed", "7", "--no-progress", "--bootstrap-servers",
             cluster.bootstrap, "--topic", TOPIC, timeout=300)
    return settled_view(service)


def load_fleet(args, cluster, service):
    """fleet_writer's workload: exactly CONNECTORS x TASKS, each key written once. Returns the view and
    how many connectors the writer says have a FAILED status (their own or a task's)."""
    done = run_tool(args.fleet_writer, cluster.bootstrap, TOPIC, str(CONNECTORS), str(TASKS), timeout=300)
    print("   " + done.stdout.strip().replace("\n", "\n   "))
    m = re.search(r"with a FAILED status (\d+)", done.stdout)
    return settled_view(service), int(m.group(1)) if m else -1


def settled_view(service):
    # The service reads the writer's records on its own: wait until its view stops changing.
    last = [None]

    def settled():
        now = get_json(service.url + "/status-store/v1/metrics")["metrics"]["status-record-read-total"]
        same = now == last[0]
        last[0] = now
        return same

    wait_until("the service to read the workload", settled, 120, interval=1.0)
    return connect_view(service.url)


def check_fleet(c, view, failed_written):
    sizes = {len(v["tasks"]) for v in view.values()}
    c.check(f"the workload is on the service: exactly {CONNECTORS} connectors with exactly {TASKS} tasks each",
            len(view) == CONNECTORS and sizes == {TASKS}, f"{len(view)} connectors, task counts {sorted(sizes)}")
    failed = sum(1 for v in view.values()
                 if v["connector"]["state"] == "FAILED" or any(t["state"] == "FAILED" for t in v["tasks"]))
    c.check(f"of them {failed_written} with a FAILED status, as the writer wrote them", 0 < failed == failed_written,
            f"{failed} on the service")


def check_load_and_filter(c, driver, service, view):
    tasks = sum(len(v["tasks"]) for v in view.values())
    driver.get(service.url + "/ui")
    wait_until("the page to render", lambda: driver.execute_script(
        "return document.documentElement.dataset.ready === '1'"), 30)
    load_ms = driver.execute_script("return window.statusStore.loadMs")
    print(f"   page load: {len(view)} connectors, {tasks} tasks rendered {load_ms:.0f} ms after navigation start")
    c.check(f"the page loads {len(view)} connectors x 8 tasks ({tasks} tasks) in under 2 s ({load_ms:.0f} ms)",
            load_ms < 2000, f"{load_ms:.0f} ms")
    rows = driver.execute_script("return document.querySelectorAll('#rows tr').length")
    cells = driver.execute_script("return document.querySelectorAll('#rows button.task').length")
    c.check(f"every connector is a row and every task a cell: exactly {CONNECTORS:,} rows and {CONNECTORS * TASKS:,} "
            "cells", rows == len(view) == CONNECTORS and cells == tasks == CONNECTORS * TASKS,
            f"{rows} rows, {cells} cells")
    failed = {n for n, v in view.items()
              if v["connector"]["state"] == "FAILED" or any(t["state"] == "FAILED" for t in v["tasks"])}
    first = driver.execute_script("return document.querySelector('#rows tr').dataset.name")
    c.check("FAILED first by default", not failed or first in failed, first)
    click(driver, "button.count[data-filter='FAILED']")
    shown = set(driver.execute_script("return [...document.querySelectorAll('#rows tr')].map((r) => r.dataset.name)"))
    c.check(f"the FAILED filter shows exactly the {len(failed)} connectors with a FAILED status", shown == failed,
            f"{len(shown ^ failed)} differ")
    count = driver.find_element(By.CSS_SELECTOR, "button.count[data-filter='FAILED'] .n").text
    c.check("its count in the header says as many", count == str(len(failed)), count)
    click(driver, "button.count[data-filter='FAILED']")  # off again
    return load_ms


def check_live_update(c, args, driver, cluster, name):
    driver.execute_script("window.__noReload = 42;")
    show_only(driver, name)
    wait_until("the connector's row", lambda: driver.execute_script(JS_ROW_STATES, name), 5)
    before = time.time()
    put(args, cluster, ["task", name, "0"], "PAUSED", generation=9)
    acked = time.time()
    wait_until("the put status on the page", lambda: page_has_state(driver, name, 0, "PAUSED"), 10, interval=0.01)
    seen = time.time()
    latency_ms = (seen - acked) * 1000
    applied = driver.execute_script(
        "return window.statusStore.applied.filter((a) => a.key === arguments[0] && a.state === 'PAUSED').pop()",
        f"status-task-{name}-0")
    record_to_render = applied["rendered_ms"] - applied["record_ms"] if applied and applied.get("rendered_ms") else -1
    print(f"   live update: put acknowledged after {(acked - before) * 1000:.0f} ms; on the page {latency_ms:.0f} ms "
          f"later; record timestamp to rendered {record_to_render} ms")
    c.check(f"a status put by another process shows within 1 s, without a reload ({latency_ms:.0f} ms)",
            latency_ms < 1000 and driver.execute_script("return window.__noReload") == 42, f"{latency_ms:.0f} ms")
    return latency_ms, record_to_render


def check_hostile(c, args, driver, cluster):
    driver.execute_script("window.__alerts = 0; window.alert = () => { window.__alerts++; };")
    put(args, cluster, ["connector", HOSTILE_NAME], "RUNNING")
    put(args, cluster, ["task", HOSTILE_NAME, "0"], "FAILED", trace=HOSTILE_TRACE)
    show_only(driver, HOSTILE_NAME)
    wait_until("the hostile connector", lambda: page_has_state(driver, HOSTILE_NAME, 0, "FAILED"), 10)
    try:
        driver.switch_to.alert
        alert_open = True
    except NoAlertPresentException:
        alert_open = False
    name_text = driver.execute_script("return document.querySelector('#rows tr button.name').textContent")
    c.check("a connector named <img src=x onerror=alert(1)> is text: no dialog, no element",
            not alert_open and driver.execute_script("return window.__alerts") == 0 and name_text == HOSTILE_NAME
            and driver.execute_script("return document.querySelectorAll('img').length") == 0, name_text)
    click(driver, "#rows button.task[data-task='0']")
    wait_until("the trace in the detail", lambda: driver.execute_script(
        "return document.getElementById('detail-trace-text').textContent"), 10)
    trace = driver.execute_script("return document.getElementById('detail-trace-text').textContent")
    c.check("a trace holding </script> is shown as text in the detail",
            trace == HOSTILE_TRACE and driver.execute_script("return document.scripts.length") == 1
            and driver.execute_script("return document.querySelectorAll('b').length") == 0
            and driver.execute_script("return window.__alerts") == 0, trace[:80])
    title = driver.find_element(By.ID, "detail-title").text
    c.check("the detail names the task as text", title == f"task {HOSTILE_NAME}-0", title)


def check_history(c, args, driver, cluster, service, name):
    for state in ("FAILED", "RUNNING"):
        put(args, cluster, ["task", name, "1"], state, generation=9, trace="boom" if state == "FAILED" else None)
    show_only(driver, name)
    wait_until("the task RUNNING again", lambda: page_has_state(driver, name, 1, "RUNNING"), 10)
    click(driver, "#rows tr button.task[data-task='1']")
    states = wait_until("the timeline", lambda: driver.execute_script(
        "const li = [...document.querySelectorAll('#detail-history li[data-state]')];"
        "return li.length >= 3 ? li.map((l) => l.dataset.state) : null;"), 10)
    expected = [t["state"] for t in get_json(
        f"{service.url}/status-store/v1/connectors/{urllib.parse.quote(name, safe='')}/tasks/1/history")["transitions"]]
    c.check("a task's history shows its transitions as a timeline, oldest first",
            states == expected and states[-2:] == ["FAILED", "RUNNING"], f"{states} vs {expected}")
    worker = driver.execute_script("return [...document.querySelectorAll('#detail-fields dd')].map((d) => d.textContent)")
    c.check("its detail shows its worker id and generation", "ui-test:8083" in worker and "9" in worker, str(worker))


def check_reconnect(c, args, driver, cluster, service, name):
    driver.execute_script("window.__noReload = 43;")
    service.stop()
    wait_until("the page to see the stream drop", lambda: driver.find_element(By.ID, "live").text != "live", 10)
    put(args, cluster, ["task", name, "2"], "STOPPED", generation=9)  # while the service is down
    service.start()
    wait_until("the page to reconnect", lambda: driver.find_element(By.ID, "live").text == "live", 30)
    show_only(driver, name)
    wait_until("what changed while it was down", lambda: page_has_state(driver, name, 2, "STOPPED"), 30)
    put(args, cluster, ["task", name, "3"], "RESTARTING", generation=9)
    acked = time.time()
    wait_until("a live status after the reconnect", lambda: page_has_state(driver, name, 3, "RESTARTING"), 10, 0.01)
    after_ms = (time.time() - acked) * 1000
    c.check(f"the page reconnects after run restarts, catches up and streams again ({after_ms:.0f} ms)",
            after_ms < 1000 and driver.execute_script("return window.__noReload") == 43
            and driver.execute_script("return window.statusStore.snapshots") >= 2, f"{after_ms:.0f} ms")


def screenshot(driver, service, path, view):
    """The page as an operator first sees it, with the detail of a FAILED task open."""
    driver.get(service.url + "/ui")
    wait_until("the page", lambda: driver.execute_script("return document.documentElement.dataset.ready === '1'"), 30)
    cell = driver.find_elements(By.CSS_SELECTOR, "#rows button.task[data-state='FAILED']")
    if cell:
        cell[0].click()
        wait_until("the timeline", lambda: driver.execute_script(
            "return document.querySelectorAll('#detail-history li').length > 0"), 10)
    time.sleep(0.3)
    driver.save_screenshot(path)
    print(f"   screenshot: {path}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("workdir")
    p.add_argument("--screenshot", help="where to save a PNG of the page")
    p.add_argument("--screenshot-only", action="store_true", help="the demo's workload and a screenshot, no checks")
    p.add_argument("--fleet-writer", help="tests/browser/fleet_writer.cpp's executable (the checks' workload)")
    args = p.parse_args()
    if not args.screenshot_only and not args.fleet_writer:
        p.error("--fleet-writer is required for the checks")
    c = Checks()
    cluster = StoreService(args.binary, args.workdir, "cluster", [
        "--bootstrap-servers", "mock", "--topic", TOPIC, "--set", "status.storage.replication.factor=1",
        "--listen", "127.0.0.1:0"]).start()
    service = None
    driver = None
    try:
        service = StoreService(args.binary, args.workdir, "service", [
            "--bootstrap-servers", cluster.bootstrap, "--topic", TOPIC, "--listen", f"127.0.0.1:{free_port()}"]).start()
        driver = browser()
        if args.screenshot_only:  # the demo's own workload: 50 connectors x 4 tasks, 12 s at 2,000 steps/s
            view = load_demo(args, cluster, service, 50, 4, 2000, 12)
            screenshot(driver, service, args.screenshot, view)
            return 0
        view, failed_written = load_fleet(args, cluster, service)
        check_fleet(c, view, failed_written)
        check_load_and_filter(c, driver, service, view)
        name = sorted(view)[0]
        check_live_update(c, args, driver, cluster, name)
        check_hostile(c, args, driver, cluster)
        check_history(c, args, driver, cluster, service, name)
        check_reconnect(c, args, driver, cluster, service, name)
        if args.screenshot:
            screenshot(driver, service, args.screenshot, view)
    except Exception as e:  # a step that could not run is a failure, never a skip
        c.check(f"the test ran to its end ({type(e).__name__})", False, str(e)[:2000])
    finally:
        if driver:
            driver.quit()
        if service:
            service.stop()
        cluster.stop()
    return c.summary()


if __name__ == "__main__":
    sys.exit(main())
