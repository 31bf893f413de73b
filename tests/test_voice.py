"""The table's voice says lines as a person would: every symbol the catalogues put in a line said as a word or a
pause of the line's language (checked in espeak-ng's own phonemes, `espeak-ng -x`, on real narration lines in
English, Mandarin and Vietnamese: no "right arrow", no English "plus" in the middle of Chinese), one line at a time
with a pause; and the menu's two switches (sound effects, voice), each on its own, each kept in the save file, with
a line saying what the table hears, shot in the four languages at 800x480 (/tmp/shots/i29/menu/).

The touchscreen runs in a process of its own (one Kivy window per process): this file is also its script.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue, say
from companion.contract import Message
from companion.games import GAMES
from companion.simulate import random_game
from companion.ui.sound import SYMBOLS, UNSAID, VOICES, spoken

ROOT = Path(__file__).parents[1]
SHOTS = Path("/tmp/shots/i29/menu")
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (scripts/setup installs it)")
# Punctuation espeak-ng takes as a pause or says nothing for, in every voice (checked below in phonemes).
ORDINARY = set("!\"',.:;?、。！，：；？")
SAID_LANGUAGES = ["en", "zh-Hans", "vi"]  # zh-Hant speaks with the same Mandarin voice as zh-Hans


def catalogue_forms(lang: str) -> list[str]:
    found = []
    for value in catalogue().messages[lang].values():
        found += list(value) if isinstance(value, tuple) else [value]
    return found


def marks_in(text: str) -> set[str]:
    """The symbols of a text a voice would have to say: arrows, signs, pictures, dashes, the odd punctuation."""
    out = set()
    for ch in text:
        kind = unicodedata.category(ch)
        if ch in UNSAID or kind[:1] == "S" or (kind == "Pd" and ch != "-") or (kind == "Po" and ch not in ORDINARY):
            out.add(ch)
    return out


def test_every_symbol_the_catalogues_put_in_a_line_has_a_word_or_a_pause_or_is_left_unsaid():
    found = set().union(*(marks_in(form) for lang in LANGUAGES for form in catalogue_forms(lang)))
    assert {"→", "·", "×", "…", "ⓘ"} <= found  # the scan sees the catalogues' symbols
    unknown = sorted(found - set(SYMBOLS) - set(UNSAID))
    assert not unknown, f"symbols with no word for the voice: {unknown}"
    for name in set(SYMBOLS.values()):
        for lang in LANGUAGES:
            assert catalogue().has(f"voice.symbol.{name}", lang), (name, lang)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_symbol_is_said_as_its_word_in_the_lines_language_and_the_info_mark_not_at_all(lang):
    to, times, equals = (say(f"voice.symbol.{n}", lang) for n in ("to", "times", "equals"))
    assert spoken("Yellow → 4 Parking", lang) == f"Yellow {to} 4 Parking"
    assert spoken("tokens 1 × 5 = 5", lang) == f"tokens 1 {times} 5 {equals} 5"
    assert spoken("With 2–4 players", lang) == f"With 2 {say('voice.symbol.range', lang)} 4 players"
    assert spoken("Rule of the step  ℹ", lang) == spoken("Rule of the step ⓘ", lang) == "Rule of the step"
    pause = say("voice.symbol.pause", lang)
    assert spoken("Round 2 · Vote", lang) == f"Round 2{pause} Vote"  # a pause sticks to the word before it
    assert spoken("✓ verified…", lang) == "verified"  # nothing left to pause for at either end
    assert spoken("Dice: ★ 4", lang) == "Dice: 4"  # a pause after a colon is the colon's
    assert to == {"en": "to", "zh-Hans": "到", "zh-Hant": "到", "vi": "đến"}[lang]


# -- in espeak-ng's phonemes -----------------------------------------------------------------------------------


@cache
def phonemes(text: str, voice: str) -> str:
    done = subprocess.run([ESPEAK, "-x", "-q", "-v", voice, "--", text], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def bare(found: str) -> str:
    """Phonemes without stress, tones, pauses, language switches and spaces: what stays of a word in any sentence."""
    return re.sub(r"\((?:en|cmn|vi)\)|_[:|!]?|[ '\n,0-9]", "", found)


@cache
def symbol_names(voice: str, lang: str) -> dict[str, str]:
    """What espeak-ng says for each symbol on its own in this voice ("right arrow"), where that is not our word."""
    names = {}
    for mark in set(SYMBOLS) | set(UNSAID):
        name = bare(phonemes(mark, voice))
        ours = bare(phonemes(spoken(f"a {mark} b", lang), voice)) if mark in SYMBOLS else ""
        if len(name) >= 3 and name not in ours:
            names[mark] = name
    return names


@cache
def narration_lines(lang: str) -> list[str]:
    """Real public lines of whole games with symbols in them (each symbol a few times), and rule lines."""
    picked: dict[str, list[str]] = {}
    for name in ("mall-of-horror", "zombiegeddon", "district-z", "eaten-by-zombies"):
        rules = GAMES[name]
        for seed in range(3):
            _events, final = random_game(rules, ["red", "yellow", "blue", "green"], random.Random(seed))
            for line in rules.narration(final):
                text = catalogue().text(line.message, lang)
                for mark in marks_in(text):
                    if not line.seats and len(picked.setdefault(mark, [])) < 3 and text not in picked[mark]:
                        picked[mark].append(text)
    for key in ("dz.rules.corner", "dz.setup.note"):  # rule lines with a range, and the "a rule is behind it" mark
        text = catalogue().text(Message("rules.line", {"text": Message(key, {})}), lang)
        picked.setdefault("rules", []).append(text)
    return [text for texts in picked.values() for text in texts]


@needs_espeak
def test_the_voices_can_be_heard_saying_a_symbols_name_so_the_check_below_can_fail():
    assert "r'aIt 'aroU" in phonemes("Yellow → 4 Parking", "en")  # "right arrow"
    assert "→" in symbol_names("en", "en") and "ℹ" in symbol_names("en", "en")
    assert "+" in symbol_names(VOICES["zh-Hans"], "zh-Hans")  # English "plus" in a Mandarin sentence
    assert "−" in symbol_names("vi", "vi")


@needs_espeak
@pytest.mark.parametrize("lang", SAID_LANGUAGES)
def test_real_narration_lines_are_said_with_no_symbols_name(lang):
    voice = VOICES[lang]
    names = symbol_names(voice, lang)
    lines = narration_lines(lang)
    marks = set().union(*(marks_in(text) for text in lines))
    assert {"→", "·", "×", "–", "ℹ"} & marks and len(lines) >= 8, (marks, len(lines))
    heard_raw = said_names = 0
    for text in lines:
        raw = bare(phonemes(text, voice))
        heard_raw += any(name in raw for name in names.values())
        line = spoken(text, lang)
        said = bare(phonemes(line, voice))
        wrong = [mark for mark, name in names.items() if name in said]
        said_names += bool(wrong)
        assert not wrong, f"{lang}: {line!r} says the name of {wrong}: {phonemes(line, voice)}"
        for mark in marks_in(text) & set(SYMBOLS):
            word = say(f"voice.symbol.{SYMBOLS[mark]}", lang)
            if SYMBOLS[mark] != "pause":  # the word is heard: the line without it sounds otherwise
                assert word in line and bare(phonemes(line.replace(word, " "), voice)) != said, (line, mark)
    assert heard_raw and not said_names  # espeak-ng would have named a symbol in these lines, and now does not


@needs_espeak
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_chinese_lines_are_said_in_mandarin_with_english_only_for_latin_words(lang):
    """espeak-ng 1.51's "cmn" voice said "红" as English "hong two"; the pinyin voice says it in Mandarin."""
    ballots = catalogue().text(Message("mall.n.vote.ballots", {"ballots": []}), lang)
    text = spoken(ballots, lang) + "，" + spoken("黄 → 4 停车场", lang)
    assert not re.search("[A-Za-z]", text)
    said = phonemes(text, VOICES[lang])
    assert "(en)" not in said and said.strip()
    for line in narration_lines(lang):
        said = phonemes(spoken(line, lang), VOICES[lang])
        assert said.count("(en)") <= len(re.findall(r"[A-Za-z]+", line)), (line, said)


# -- the menu's switches, on the touchscreen -------------------------------------------------------------------


@pytest.fixture(scope="module")
def menu(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("voice-menu")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    out = tmp / "report.json"
    done = subprocess.run([sys.executable, __file__, "--out", str(out), "--tmp", str(tmp)], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_sound_effects_switch_leaves_the_voice_on_and_the_voice_switch_leaves_the_effects(menu):
    states = menu["states"]
    assert [s["switches"] for s in states] == [[False, False], [False, True], [True, True], [True, False]]
    assert [s["hearing"] for s in states] == [say(f"voice.hearing.{h}") for h in ("effects", "both", "voice",
                                                                                   "nothing")]
    voice_only = states[2]
    assert say("voice.effects_off") in voice_only["texts"] and say("ui.speech_on") in voice_only["texts"]
    assert voice_only["spoken"] == ["Yellow to 4 Parking", "Round 2, Vote"] and voice_only["played"] == []
    both = states[1]
    assert both["played"] == ["reveal"] and both["spoken"] == ["Yellow to 4 Parking", "Round 2, Vote"]


def test_each_switch_is_kept_in_the_save_file(menu):
    assert menu["kept"] == {"muted": True, "speech": True}  # a new app on the same save file: effects off, voice on


def test_the_menu_says_honestly_when_nothing_can_be_heard(menu):
    assert menu["no_speaker"] == say("voice.hearing.no_speaker")
    missing = menu["no_espeak"]
    assert missing["note"] == say("ui.speech_missing", program="espeak-ng") and not missing["speech_enabled"]
    assert missing["hearing"] == say("voice.hearing.effects")  # switched on, but nothing speaks: not claimed


def test_the_menu_is_shot_in_every_language_and_every_text_fits(menu):
    names = {Path(p).name for p in menu["shots"]}
    wanted = {f"menu-{state}-{lang}-800x480.png" for state in ("voice-only", "both", "no-espeak")
              for lang in LANGUAGES}
    assert wanted <= names, sorted(wanted - names)
    assert not menu["problems"], "\n".join(menu["problems"][:20])


def main() -> int:
    import argparse
    import asyncio
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import uikit  # opens the offscreen window at 800x480

    from companion.ui.app import CompanionApp

    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--tmp", default=None)
    args = parser.parse_args()
    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    report: dict = {"states": [], "shots": [], "problems": []}
    lines = [("mall.n.reveal.destinations", "Yellow → 4 Parking"), ("mall.n.round", "Round 2 · Vote")]

    async def go() -> None:
        box = uikit.open_box(db)
        await box.open()
        app = CompanionApp(box, lang="en")
        ears = uikit.Ears()
        app.sounds.player = app.sounds.voice = ears  # a speaker and espeak-ng that record what they would say
        app.sounds.line_gap = 0.01
        glyphs = uikit.Glyphs()

        async def script(d: uikit.Driver) -> None:
            app.goto("menu")
            await d.settle(3)
            menu = app.manager.current_screen

            async def state(after: str | None) -> dict:
                if after is not None:
                    await d.tap(menu.ids[after])
                ears.played.clear()
                ears.spoken.clear()
                app.sounds.hear(lines, "en", GAMES["mall-of-horror"].SOUNDS)
                await asyncio.sleep(1.0)  # the sounds' gaps, then each line
                await app.sounds.said()
                seen = {"switches": [app.sounds.muted, app.sounds.speech], "hearing": menu.ids.hearing.text,
                        "texts": d.texts(), "played": list(ears.played), "spoken": [t for t, _ in ears.spoken]}
                report["states"].append(seen)
                return seen

            async def shoot(name: str) -> None:
                await d.shoot_languages(lambda lang: SHOTS / f"menu-{name}-{lang}-800x480.png", glyphs, report)
                program = re.compile(r"English left in (\S+): '(.*espeak-ng.*)'$")  # the program's name is no English
                report["problems"] = [p for p in report["problems"] if not (m := program.search(p))
                                      or uikit.english_left(m[1], m[2].replace("espeak-ng", " "))]

            await state(None)  # as a new box starts: the sound effects on, the voice off
            await state("speech")
            await shoot("both")
            await state("sounds")  # the sound effects off: the voice goes on
            await shoot("voice-only")
            await state("speech")
            await d.tap(menu.ids.sounds)
            await d.tap(menu.ids.speech)  # effects on, voice on again
            await d.tap(menu.ids.sounds)  # and effects off: kept so in the save file
            ears.working = False  # no sound card, no audio server
            menu.update(force=True)
            report["no_speaker"] = menu.ids.hearing.text
            ears.working = True
            ears.available = False  # no espeak-ng
            app.sounds.muted = False
            menu.update(force=True)
            await d.settle(2)
            report["no_espeak"] = {"note": menu.ids.speech_note.text, "hearing": menu.ids.hearing.text,
                                   "speech_enabled": menu.ids.speech.enabled}
            await shoot("no-espeak")

        try:
            await uikit.run_with(app, script)
        finally:
            await box.close()
        again = uikit.open_box(db)  # the box started again on the same save file
        await again.open()
        try:
            sounds = CompanionApp(again, lang="en").sounds
            report["kept"] = {"muted": sounds.muted, "speech": sounds.speech}
        finally:
            await again.close()

    asyncio.run(go())
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
