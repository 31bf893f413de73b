"""`companion bench ui [--game G]`: the touchscreen app beside a bare Kivy window with one label, measured in the
same run.

Each is measured in a process of its own (one Kivy window per process), offscreen unless a display is set:
cold start to the first frame, idle CPU with a game open, peak memory, and answer -> screen redrawn (for the bare
window: a new text -> redrawn). Both processes load the same modules before their window (the box's among them), so
the figures compare what each draws. The app's frame counts as redrawn once the GL has finished it (the app waits
for each frame); of its time, the part the table took to store the answer and the part the GL took to raster the
frame are printed too.

Wall-clock figures follow the machine's load (software GL rasters on every core): each redraw's CPU time (the
process's, its GL threads included, from the answer to the frame) is printed beside them, with the load average
before and after. A third run plays the same games with the screen in Chinese (Noto CJK, a much bigger font) for its
peak memory.

The app plays random legal games (seeds 3, 4, 5...) one after the other on the same screen until the answers asked
for (200 by default) are measured: a game of Mall of Horror is about 90 answers, and the p99 of one game would be
its single slowest answer. The game is Mall of Horror unless told (`--game`). The slowest answers are printed too.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from companion.bench import DEFAULT_GAME

CHINESE = "zh-Hans"
FIRST_SEED = 3  # the games played: random legal games of seeds 3, 4, 5... until the answers asked for are measured


def bench_ui(idle: float = 30.0, answers: int = 200, game: str = DEFAULT_GAME) -> int:
    env = dict(os.environ)
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        env.setdefault("SDL_VIDEODRIVER", "offscreen")
    load_before = os.getloadavg()
    ticks_before = _cpu_ticks()
    results = {}
    for kind, lang, idle_s in (("bare", "en", idle), ("app", "en", idle), ("app", CHINESE, 0.0)):
        started = time.time()
        done = subprocess.run([sys.executable, "-m", "companion.bench.ui", kind, str(idle_s), str(answers), lang, game],
                              capture_output=True, text=True, env=env, timeout=idle_s + 300)
        if done.returncode != 0:
            print(f"bench ui: the {kind} run ({lang}) failed:\n{done.stderr[-2000:]}", file=sys.stderr)
            return 1
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["cold_start_s"] = figures.pop("first_frame_at") - started
        results[kind if lang == "en" else lang] = figures
    load_after = os.getloadavg()
    ticks_after = _cpu_ticks()
    stolen = ""
    if ticks_before and ticks_after and ticks_after[1] > ticks_before[1]:
        share = 100 * (ticks_after[0] - ticks_before[0]) / (ticks_after[1] - ticks_before[1])
        stolen = f"; {share:.1f} % of the CPU time taken by the hypervisor meanwhile (steal)"
    bare, app, chinese = results["bare"], results["app"], results[CHINESE]
    print(f"touchscreen app playing {game} vs a bare Kivy window with one label "
          f"({env.get('SDL_VIDEODRIVER') or 'display'}, "
          f"{app['size']}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after, "
          f"on {os.cpu_count()} cores{stolen}):")
    print(f"  cold start to first frame: {app['cold_start_s']:.2f} s  (bare window {bare['cold_start_s']:.2f} s; "
          f"goal within +1 s: {'met' if app['cold_start_s'] <= bare['cold_start_s'] + 1 else 'NOT met'})")
    print(f"  idle CPU over {idle:.0f} s with a game open: {app['idle_cpu_pct']:.2f} % of a core  "
          f"(bare window {bare['idle_cpu_pct']:.2f} %; goal < 3 %)")
    ratio = app["peak_mb"] / bare["peak_mb"]
    print(f"  peak memory: {app['peak_mb']:.0f} MB  (bare window {bare['peak_mb']:.0f} MB; {ratio:.2f}x, "
          f"goal < 1.3x)")
    print(f"  answer -> screen redrawn: p50 {app['p50_ms']:.1f} ms, p99 {app['p99_ms']:.1f} ms over "
          f"{app['samples']} answers in {app['games']} game(s)  (bare window, new text -> redrawn: "
          f"p50 {bare['p50_ms']:.1f} ms, p99 {bare['p99_ms']:.1f} ms; goal p99 < 50 ms: "
          f"{'met' if app['p99_ms'] < 50 else 'NOT met'})")
    print(f"    of which, at p50: the table storing the answer {app['store_p50_ms']:.1f} ms, the GL rastering the "
          f"frame {app['raster_p50_ms']:.1f} ms; a game's last answer, which opens the end screen, at most "
          f"{app['last_ms']:.1f} ms")
    print("    the slowest: " + ", ".join(f"{ms:.1f} ms (game {g}, answer {n}, {lines} new lines of narration)"
                                       for ms, g, n, lines in app["slowest"]))
    print(f"  CPU time per redraw (all the process's threads, answer -> frame: other processes' load adds little): "
          f"p50 {app['cpu_p50_ms']:.1f} ms, p99 {app['cpu_p99_ms']:.1f} ms  (bare window p50 "
          f"{bare['cpu_p50_ms']:.1f} ms, p99 {bare['cpu_p99_ms']:.1f} ms)")
    print(f"  the same game in {CHINESE}: peak memory {chinese['peak_mb']:.0f} MB "
          f"({chinese['peak_mb'] / bare['peak_mb']:.2f}x the bare window), answer -> screen redrawn "
          f"p50 {chinese['p50_ms']:.1f} ms, p99 {chinese['p99_ms']:.1f} ms (slowest {chinese['max_ms']:.1f} ms), "
          f"CPU per redraw p50 {chinese['cpu_p50_ms']:.1f} ms, p99 {chinese['cpu_p99_ms']:.1f} ms")
    return 0


def _cpu_ticks() -> tuple[int, int] | None:
    """The machine's CPU time stolen by a hypervisor and its CPU time in all, in ticks (Linux), or None. On a shared
    virtual machine stolen time comes in bursts: an answer that waited through one is slow in wall-clock time only."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(v) for v in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (fields[7], sum(fields)) if len(fields) == 8 else None


# -- one measured process -------------------------------------------------------------------------------------


def _child(kind: str, idle: float, answers: int, lang: str = "en", game: str = DEFAULT_GAME) -> None:
    from companion.ui.run import configure_kivy, open_window

    configure_kivy(os.environ.get("SDL_VIDEODRIVER") or "desktop")
    Window = open_window()

    first = {}

    def flipped(*_args) -> None:
        first.setdefault("at", time.time())

    Window.bind(on_flip=flipped)
    out = asyncio.run(_measure(kind, idle, answers, first, lang, game))
    out["first_frame_at"] = first["at"]
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["size"] = f"{Window.width}x{Window.height}"
    print(json.dumps(out))


async def _measure(kind: str, idle: float, answers: int, first: dict, lang: str = "en",
                   game: str = DEFAULT_GAME) -> dict:
    from kivy.app import App
    from kivy.core.window import Window
    from kivy.uix.label import Label

    box = None
    plays: list[dict] = []
    if kind == "bare":
        class Bare(App):
            def build(self):
                self.label = Label(text="Round 1")
                return self.label

        app = Bare()
    else:
        from companion.bench import rules_of, seats_for
        from companion.box import Box, BoxOptions
        from companion.cup import DiceCup
        from companion.simulate import random_game
        from companion.ui.app import CompanionApp

        rules = rules_of(game)
        players = seats_for(rules, 4)
        folder = tempfile.mkdtemp()
        box = Box(BoxOptions(db=os.path.join(folder, "bench.sqlite3"), host="127.0.0.1", port=0,
                             address="127.0.0.1", reveal_grace=0))  # the scripted answers follow at once
        await box.open()

        def new_game(seed: int) -> list[dict]:
            """A random legal game of this seed, its dice scripted into the cup: its answers, in order."""
            events, _ = random_game(rules, players, random.Random(seed))
            box.table.cup = DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                                    picks=[e["pick"] for e in events if "pick" in e])
            box.table.new_game(game, players)
            return [e for e in events if "roll" not in e and "pick" not in e]

        plays = new_game(FIRST_SEED)
        app = CompanionApp(box, lang=lang)
        from companion.ui import app as app_module

        finish = app_module.glFinish

        def timed_finish() -> None:
            started = time.perf_counter()
            finish()
            rasters.append(time.perf_counter() - started)
            drawn.append(time.perf_counter())

        app_module.glFinish = timed_finish  # (the app finishes every frame it flips)
    rasters: list[float] = []
    drawn: list[float] = []  # when each frame was finished: the screen redrawn

    out: dict = {}

    async def script() -> None:
        nonlocal plays
        if kind == "bare":  # finished as the app's frames are
            from kivy.graphics.opengl import glFinish

            def finished(*_args) -> None:
                glFinish()
                drawn.append(time.perf_counter())

            Window.bind(on_flip=finished)
        while "at" not in first:
            await asyncio.sleep(0.01)
        from companion.ui.app import MADE_AHEAD  # (both windows load the same modules)

        await asyncio.sleep(MADE_AHEAD + 1.0)  # settled: first layouts, fonts, and the screens made ahead
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(idle)
        out["idle_cpu_pct"] = 100 * (time.process_time() - cpu) / max(time.monotonic() - wall, 1e-9)
        times, stored, rastered, cpus, steps, lasts = [], [], [], [], [], []
        game, played = 1, 0
        for n in range(answers):
            if kind != "bare" and (played >= len(plays) or app.table.state.over):
                lasts.append(times[-1])  # the game's last answer opened the end screen
                game += 1  # the next game, on the same screen: the answers asked for are not measured yet
                plays, played = new_game(FIRST_SEED + game - 1), 0
                # The board again, and the last game's widgets collected (a second after the screen changed): a table
                # starts a game on the new-game screen, never a second before its first answer.
                await asyncio.sleep(2.5)
            before = len(drawn)
            del rasters[:]
            c0 = time.process_time()
            t0 = time.perf_counter()
            if kind == "bare":
                app.label.text = f"Round {n + 2}"
            else:
                lines = len(app.public_lines)
                app.table.answer(plays[played])
                played += 1
            stored.append(time.perf_counter() - t0)
            while len(drawn) == before:
                await asyncio.sleep(0.0005)
            times.append(drawn[before] - t0)  # the first frame after the answer, when it was finished
            if kind != "bare":
                steps.append((times[-1], game, played, len(app.public_lines) - lines))
            cpus.append(time.process_time() - c0)
            rastered.append(rasters[0] if rasters else 0.0)
            await asyncio.sleep(0.02)
        if kind != "bare" and app.table.state.over:
            lasts.append(times[-1])
        out["games"] = game
        out["last_ms"] = 1000 * max(lasts) if lasts else 0.0  # the slowest of the games' last answers
        out["max_ms"] = 1000 * max(times) if times else 0.0
        out["slowest"] = [(1000 * ms, g, n, lines) for ms, g, n, lines in sorted(steps, reverse=True)[:3]]
        times.sort()
        out["samples"] = len(times)
        out["p50_ms"] = 1000 * statistics.median(times)
        out["p99_ms"] = 1000 * times[min(len(times) - 1, int(0.99 * len(times)))]
        cpus.sort()
        out["cpu_p50_ms"] = 1000 * statistics.median(cpus)
        out["cpu_p99_ms"] = 1000 * cpus[min(len(cpus) - 1, int(0.99 * len(cpus)))]
        out["store_p50_ms"] = 1000 * statistics.median(stored)
        out["raster_p50_ms"] = 1000 * statistics.median(rastered)
        app.stop()

    await asyncio.gather(app.async_run(async_lib="asyncio"), script())
    if box is not None:
        await box.close()
    return out


if __name__ == "__main__":
    _child(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:6])
