"""The rules added for real runs, each on its own: a generic tool compared by its command,
a repeat after a state-changing step, one transient retry, and the exact check's view of
calls made again after a write; and who drove a repetition (round 3): a resend or a
restated answer the user asked for, a number the user gave, an error naming what was
kept; and what a write was made on (round 4): a script the run wrote that writes, a read
after a file rewritten on top of another edit; and replies the harness refused (round 5):
a lap of refusals is a repeat, a refusal after work that ran is a new slip; an option's
value is what a command tries; an edit re-applied to look at something new is a toggle
unless the lap measured a change of its own (issue 13's restore, re-test, re-apply); a
fixed reply sent word for word a fourth time to new user words ignores them; and ids the
customer corrects or restates (round 6): a value the user supplied is a new target, a
placeholder call is no attempt of the real one, a report after the first call is news; and
(round 8) a result that differs only by a new id the agent never uses is the same result, and
a reply that is a JSON record is embedded by its first words, not whole; and (round 9) a
record looked at again before a new reply to the customer's new report is a check; and (round
10) a write sent again as it was fetches nothing for the user; and (round 11) a record looked at
twice in a row before that reply is still the check; and (round 12) a click, keystrokes or a
navigation change the page the next look reads, and a parameter's name quoted in an error is
no value kept."""

from __future__ import annotations

import json
from typing import Any

from semloop._features import Call, action_kind, call_changes_state, run_writes
from semloop.evaluate.loop import _unchanged_repeats
from semloop.judge.local import LocalBackend
from semloop.judge.local._answerer import LocalJudgement
from semloop.lexical import score_tool_repetition

from .test_features import judgement, step


def bash(command: str, output: str) -> tuple[str, dict[str, str], str]:
    return ("bash", {"command": command}, output)


def test_a_generic_tool_is_compared_by_its_command(backend: LocalBackend) -> None:
    # One tool carries all the work: different commands are different actions.
    j = judgement(
        backend,
        step("Look at the tree.", bash("ls src/pkg", "a.py b.py")),
        step("Read the module.", bash("cat src/pkg/a.py", "def f(): ...")),
        step("Search for callers.", bash("grep -rn 'f(' src", "src/pkg/b.py:3: f()")),
    )
    assert j.repeat_probability(0, 1) < 0.3 and j.repeat_probability(1, 2) < 0.3
    assert j.tool_repeat("bash") < 0.5
    # The same command with the same output is a repeat, whatever the tool is called.
    same = judgement(
        backend,
        step("Run the script.", bash("python repro.py", "Traceback: KeyError 'x'")),
        step("Run it again.", bash("python repro.py", "Traceback: KeyError 'x'")),
    )
    assert same.repeat_probability(0, 1) > 0.85


def test_action_kind_names_the_program_a_generic_tool_runs() -> None:
    write = Call.of("bash", '{"command": "sed -i s/a/b/ f.py"}', "")
    assert action_kind(write) == "bash:sed:write"
    assert action_kind(Call.of("bash", '{"command": "sed -n 1,9p f.py"}', "x = 1")) == "bash:sed"
    assert action_kind(Call.of("bash", '{"command": "python t.py"}', "ok")) == "bash:python"
    assert action_kind(Call.of("search", '{"q": "x"}', "")) == "search"
    # A directory change in front names no program: the edit and the diff after it are two.
    assert action_kind(Call.of("bash", '{"command": "cd /testbed && sed -i s/a/b/ f.py"}',
                               "")) == "bash:sed:write"
    assert action_kind(Call.of("bash", '{"command": "cd /testbed && git diff > p.txt"}',
                               "")) == "bash:git:write"


def test_writes_are_recognised_and_failed_writes_are_not() -> None:
    assert call_changes_state(Call.of("bash", '{"command": "sed -i s/a/b/ f.py"}', ""))
    assert call_changes_state(Call.of("bash", '{"command": "echo x > f.py"}', ""))
    assert call_changes_state(Call.of("update_reservation", '{"id": "R1"}', '{"ok": true}'))
    assert not call_changes_state(Call.of("bash", '{"command": "cat f.py"}', "x = 1"))
    assert not call_changes_state(
        Call.of("update_reservation", '{"id": "R1"}', "Error: payment declined"))


def test_an_edit_went_through_whatever_the_code_it_echoes_says() -> None:
    # An editor reports a write, then shows the edited lines (cat -n); code that says
    # "invalid" or "timeout" is the file's text, not the tool's verdict.
    edited = ("The file /w/t.py has been edited. Here's the result of running `cat -n` on a "
              "snippet of /w/t.py:\n    40\t    # should trigger invalid-name\n"
              "    41\t    run(timeout=5)\nReview the changes and make sure they are as expected.")
    args = '{"command": "str_replace", "path": "/w/t.py", "old_str": "a", "new_str": "b"}'
    assert call_changes_state(Call.of("str_replace_editor", args, edited))
    calls = [Call.of("execute_bash", '{"command": "python t.py"}', "not reproduced"),
             Call.of("str_replace_editor", args, edited),
             Call.of("execute_bash", '{"command": "python t.py"}', "not reproduced")]
    assert run_writes(calls) == [False, True, False]
    # The editor's own failure still fails, listing or not; a bare listing is still read as
    # the output it is (a view of a file that says "invalid" changed nothing either way).
    assert not call_changes_state(Call.of(
        "str_replace_editor", args,
        "ERROR: No replacement was performed, old_str `a` did not appear verbatim in /w/t.py."))
    assert not call_changes_state(Call.of(
        "str_replace_editor", args, "Invalid `path` parameter: /w/t.py does not exist.\n"
        "     1\tx = 1"))
    view = Call.of("str_replace_editor", '{"command": "view", "path": "/w/t.py"}',
                   "    40\t    # should trigger invalid-name")
    assert view.empty and view.reports_failure


def test_a_script_the_run_wrote_to_write_files_is_a_write_when_run() -> None:
    fix = Call.of("bash", '{"command": "cat <<\'EOF\' > fix.py\\nsrc = open(\'a.py\').read()'
                  '\\nopen(\'a.py\', \'w\').write(src)\\nEOF"}', "")
    repro = Call.of("bash", '{"command": "cat <<\'EOF\' > repro.py\\nprint(f(1))\\nEOF"}', "")
    calls = [fix, repro,
             Call.of("bash", '{"command": "cd /testbed && python3 fix.py"}', "patched"),
             Call.of("bash", '{"command": "python repro.py"}', "2"),
             Call.of("bash", '{"command": "python fix.py"}', "Traceback: SyntaxError"),
             Call.of("bash", '{"command": "find . -name \'*.pyc\' -delete"}', "")]
    assert run_writes(calls) == [True, True, True, False, False, True]
    # Alone, a script run says nothing about what the script does.
    assert not call_changes_state(calls[2])
    assert action_kind(calls[2], True) == "bash:python3:write"
    # Rewritten as a script that only reads, it is a read again.
    reread = Call.of("bash", '{"command": "cat <<\'EOF\' > fix.py\\nprint(1)\\nEOF"}', "")
    assert run_writes([fix, reread, calls[2]])[2] is False


def test_a_rerun_after_an_edit_is_a_new_attempt(backend: LocalBackend) -> None:
    out = "FAILED test_x - AssertionError"
    j = judgement(
        backend,
        step("Run the test.", bash("pytest tests/test_x.py", out)),
        step("Fix the comparison.", bash("sed -i 's/==/!=/' src/x.py", "")),
        step("Run the test again.", bash("pytest tests/test_x.py", out)),
    )
    assert j.repeat_probability(0, 2) <= 0.2  # the world changed between the two runs
    unchanged = judgement(
        backend,
        step("Run the test.", bash("pytest tests/test_x.py", out)),
        step("Look at the file.", bash("cat src/x.py", "x == 1")),
        step("Run the test again.", bash("pytest tests/test_x.py", out)),
    )
    assert unchanged.repeat_probability(0, 2) > 0.85  # a read changes nothing


def test_one_transient_retry_is_careful_the_second_is_a_repeat(backend: LocalBackend) -> None:
    err = '{"error": "service unavailable", "code": 503}'
    call = ("get_order_details", {"order_id": "#W1"}, err)
    j = judgement(backend, step("Look up the order.", call), step("Retry.", call),
                  step("Retry once more.", call))
    assert j.repeat_probability(0, 1) < 0.4  # the first identical retry of a 503
    assert j.repeat_probability(1, 2) > 0.6 or j.repeat_probability(0, 2) > 0.6
    permanent = ("update_order", {"order_id": "#W1"}, "Error: payment method declined")
    k = judgement(backend, step("Update.", permanent), step("Update again.", permanent))
    assert k.repeat_probability(0, 1) > 0.85  # a declined payment does not pass on its own


def test_the_exact_check_counts_calls_made_again_after_a_write_as_new() -> None:
    def span(name: str, inp: str, out: str) -> dict[str, str]:
        return {"type": "tool", "name": name, "input": inp, "output": out}

    test = span("bash", '{"command": "pytest"}', "1 failed")
    edited = [test]
    for k in range(5):  # a different edit each time, then the test again
        edited += [span("bash", f'{{"command": "sed -i s/a{k}/b/ x.py"}}', ""), test]
    assert score_tool_repetition(_unchanged_repeats(edited), 3)[0] == 1.0
    # The same edit resent changes nothing a later test sees: those reruns are repeats.
    same_edit = span("bash", '{"command": "sed -i s/a/b/ x.py"}', "")
    resent = [test, same_edit, test, same_edit, test, same_edit, test]
    assert score_tool_repetition(_unchanged_repeats(resent), 3)[0] < 1.0
    assert score_tool_repetition(_unchanged_repeats([test] * 6), 3)[0] == 0.0


def test_a_read_after_a_write_by_the_same_program_sees_a_changed_world(
    backend: LocalBackend,
) -> None:
    view = bash("sed -n '9,12p' f.py", "x = 1")
    j = judgement(backend, step("Look.", view),
                  step("Edit.", bash("sed -i '10s/1/2/' f.py", "")),
                  step("Look again.", view))
    assert j.repeat_probability(0, 2) <= 0.2  # sed -n after sed -i: not the same action


def test_a_restore_after_an_edit_is_a_new_world_but_a_toggle_is_not(
    backend: LocalBackend,
) -> None:
    test, out = "python t.py", "FAILED: wrong order"
    restore = bash("cp f.py.backup f.py", "")
    j = judgement(backend, step("Edit.", bash("sed -i 's/a/b/' f.py", "")),
                  step("Test.", bash(test, out)), step("Restore.", restore),
                  step("Test without the fix.", bash(test, out)))
    assert j.repeat_probability(1, 3) <= 0.2  # the restore undid the edit: another world
    edit = bash("sed -i '895,897d' f.py", "")
    k = judgement(backend, step("Delete the lines.", edit), step("Test.", bash(test, out)),
                  step("Restore.", restore), step("Delete them again.", edit),
                  step("Test again.", bash(test, out)))
    assert k.repeat_probability(1, 4) > 0.85  # the same edit on the same base: a toggle


def test_a_file_rewritten_after_another_edit_is_a_new_world(backend: LocalBackend) -> None:
    # The same diff written again after another edit: reading it again is a new look, even
    # though the diff command (the last write before the read) is the same.
    diff, read = bash("git diff > patch.txt", ""), bash("cat patch.txt", "diff --git a/x.py")
    j = judgement(backend, step("Fix.", bash("sed -i 's/a/b/' x.py", "")),
                  step("Save the diff.", diff), step("Read it.", read),
                  step("Fix the rest.", bash("sed -i 's/c/d/' x.py", "")),
                  step("Save the diff again.", diff), step("Read it again.", read))
    assert j.repeat_probability(2, 5) <= 0.2
    # With nothing written in between, the second read is a repeat.
    k = judgement(backend, step("Fix.", bash("sed -i 's/a/b/' x.py", "")),
                  step("Save the diff.", diff), step("Read it.", read),
                  step("Save the diff again.", diff), step("Read it again.", read))
    assert k.repeat_probability(2, 4) > 0.85


def test_a_quote_inside_an_argument_is_content(backend: LocalBackend) -> None:
    j = judgement(backend,
                  step("Fix.", bash("sed -i 's/f(\"60s\")/g()/' x.py", "")),
                  step("Again, other quotes.", bash("sed -i \"s/f('60s')/g()/\" x.py", "")))
    assert j.repeat_probability(0, 1) < 0.3
    same = judgement(backend, step("List.", bash("ls 'src dir'", "a.py")),
                     step("List.", bash('ls "src dir"', "a.py")))
    assert same.repeat_probability(0, 1) > 0.85  # outer quoting is how it is written


def test_two_long_inputs_that_differ_past_the_cut_stay_two() -> None:
    from semloop.evaluate.loop import _truncate

    head = "cat > t.py << 'EOF'\n" + "x = 1\n" * 200
    a, b = _truncate(head + "print(1)\nEOF", 800), _truncate(head + "print(2)\nEOF", 800)
    assert a != b and a[:800] == b[:800]
    assert Call.of("bash", a, "").raw != Call.of("bash", b, "").raw
    assert Call.of("bash", a, "").raw == Call.of("bash", _truncate(head + "print(1)\nEOF", 800),
                                                 "").raw


def test_the_local_judge_has_no_question_budget(backend: LocalBackend) -> None:
    from semloop.judge.mock import MockBackend
    from semloop.semantic import SemanticLoopDetection
    from semloop.trace import Trace

    trace = Trace.from_steps("g", [{"output": f"step {k}"} for k in range(100)])
    local = SemanticLoopDetection(backend)
    _, questions, _ = local.questions_for(trace)
    assert "progress_98_99" in questions  # the last steps of a long run are asked about
    hosted = SemanticLoopDetection(MockBackend({}))
    assert len(hosted.questions_for(trace)[1]) == 64  # a judge that does not say: 64
    assert len(SemanticLoopDetection(backend, max_questions=10).questions_for(trace)[1]) == 10


def test_the_structural_tool_loop_counts_a_call_again_only_on_the_same_world() -> None:
    from semloop.detect import run_detectors
    from semloop.events import Run
    from semloop.trace import Span, Trace

    def tool(cmd: str, out: str) -> Span:
        return Span(type="tool", name="bash", input={"command": cmd}, output=out)

    view = ("sed -n '319,340p' models.py", "def database_forwards(self): ...")
    edits = [tool(f"sed -i '32{k}s/ #/#/' models.py", "") for k in range(3)]
    spans = [tool(*view), edits[0], tool(*view), edits[1], tool(*view), edits[2], tool(*view)]

    def loops(children: list[Span]) -> set[str]:
        trace = Trace(goal="g", root=Span(type="agent", name="a", children=children))
        return {s.failure_type for s in run_detectors(Run.from_trace(trace, run_id="r"))}

    assert "TOOL_LOOP" not in loops(spans)  # a look after each edit
    assert "TOOL_LOOP" in loops([tool(*view) for _ in range(4)])  # nothing changed between
    # A diff written again after each new edit, and read: each read sees another world,
    # though the write just before it is the same command each time.
    from semloop.detect._repetition import _worlds
    from semloop.detect._view import view_of

    diff, read = tool("git diff > changes.diff", ""), tool("cat changes.diff", "diff --git")
    laps = [span for k in range(3) for span in (edits[k], diff, read)]
    trace = Trace(goal="g", root=Span(type="agent", name="a", children=laps))
    worlds = _worlds(view_of(Run.from_trace(trace, run_id="r")).tools, {2, 5, 8})
    assert len({worlds[2], worlds[5], worlds[8]}) == 3
    again = [edits[0], diff, read, diff, read]  # nothing edited between: one world
    trace = Trace(goal="g", root=Span(type="agent", name="a", children=again))
    worlds = _worlds(view_of(Run.from_trace(trace, run_id="r")).tools, {2, 4})
    assert worlds[2] == worlds[4]


def turn(user: str, text: str, *tools: tuple[str, dict[str, Any], str]) -> dict[str, Any]:
    """An agent turn answering a user message (tau-bench's shape: the reply is the input)."""
    return {**step(text, *tools), "input": user}


def test_a_resend_the_user_asked_for_is_a_new_attempt_once(backend: LocalBackend) -> None:
    search = ("search_direct_flight", {"origin": "ATL", "destination": "LAS"}, "[]")
    asked_again = [
        turn("Find me a nonstop from Atlanta to Las Vegas.", "Searching.", search),
        step("There are no nonstop flights that day."),
        turn("Could you check again, maybe around my original time?", "Searching again.", search),
        step("Still no nonstop flights."),
    ]
    j = judgement(backend, *asked_again)
    # The customer heard of the failure and asked again: the user drove the resend.
    assert j.repeat_probability(0, 2) <= 0.2
    assert j.progress(1, 2) > 0.8
    # The same nothing a third time is the agent hitting the same wall.
    third = judgement(backend, *asked_again, turn("Please try once more, it has to be nonstop.",
                                                  "Searching once more.", search))
    assert third.repeat_probability(2, 4) > 0.85


def test_a_refusal_restated_to_new_user_words_is_a_reply(backend: LocalBackend) -> None:
    refusal = ("I'm sorry, but I cannot remove a passenger from an existing reservation. "
               "Would you like me to transfer you to a human agent?")
    j = judgement(
        backend,
        step(refusal),
        turn("Well, I need to remove one passenger named Sophia. Can you help?", refusal),
        turn("I was hoping you could do it right here. It's urgent.", refusal),
    )
    assert j.repeat_probability(1, 2) <= 0.2 and j.progress(1, 2) > 0.8
    # The same message sent again is no new request: the same answer to it is a repeat.
    again = judgement(
        backend,
        turn("Can you remove Sophia from my booking?", refusal),
        turn("Can you remove Sophia from my booking?", refusal),
    )
    assert again.repeat_probability(0, 1) > 0.85


def test_a_report_after_a_repeated_call_is_not_a_reply(backend: LocalBackend) -> None:
    update = ("update_reservation_flights", {"flights": ["HAT030", "HAT102"], "id": "XEWRD9"},
              "Error: flight HAT030 not available on date 2024-05-13")
    report = "It seems there is still an issue with flight HAT030, which is not available."
    j = judgement(
        backend,
        turn("Please book HAT102 for me.", "Updating.", update),
        step(report),
        turn("Please proceed with HAT102, thank you.", "Updating.", update),
        step(report),
        turn("We're going in circles. Please change only the ATL-LAS flight.", "Updating.",
             update),
        step(report),
    )
    # A third send of what failed, whatever the customer said: the agent's own wall, and
    # the report of it says nothing new either.
    assert j.repeat_probability(2, 4) > 0.85
    assert j.repeat_probability(3, 5) > 0.85


def test_a_report_after_a_new_attempt_is_news(backend: LocalBackend) -> None:
    lookup = "find_user_id_by_name_zip"
    j = judgement(
        backend,
        turn("I'm Noah Ito, zip 98178.", "Looking you up.",
             (lookup, {"name": "Noah Ito", "zip": "98178"}, "Error: user not found")),
        step("I'm sorry, Noah, but I couldn't find a user matching that information."),
        turn("Maybe the zip is 98186, can you try that?", "Trying again.",
             (lookup, {"name": "Noah Ito", "zip": "98186"}, "Error: user not found")),
        step("I'm sorry, Noah, but I still couldn't find a user matching that information."),
    )
    # The zip the customer corrected is a new target, not a setting the agent tweaked ...
    assert j.repeat_probability(0, 2) <= 0.2
    # ... so the second apology reports the result of a new attempt.
    assert j.repeat_probability(1, 3) <= 0.2


def test_a_zip_the_agent_made_up_is_still_a_setting(backend: LocalBackend) -> None:
    lookup = "find_user_id_by_name_zip"
    j = judgement(
        backend,
        step("Looking the user up.", (lookup, {"name": "Noah Ito", "zip": "98178"},
                                      "Error: user not found")),
        step("Trying a nearby zip.", (lookup, {"name": "Noah Ito", "zip": "98186"},
                                      "Error: user not found")),
        step("Trying another nearby zip.", (lookup, {"name": "Noah Ito", "zip": "98187"},
                                            "Error: user not found")),
    )
    assert j.repeat_probability(1, 2) > 0.6


def test_an_error_naming_a_kept_value_is_the_same_failed_approach(
        backend: LocalBackend) -> None:
    err = "Error: flight HAT030 not available on date 2024-05-13"
    j = judgement(
        backend,
        step("Update the flights.", ("update_reservation_flights",
                                     {"flights": ["HAT030", "HAT223", "HAT252"]}, err)),
        step("Update with the new return.", ("update_reservation_flights",
                                             {"flights": ["HAT030", "HAT223", "HAT102"]}, err)),
    )
    # Another segment changed; the one the error names was kept: the same failure again.
    assert j.repeat_probability(0, 1) > 0.85
    fixed = judgement(
        backend,
        step("Update the flights.", ("update_reservation_flights", {"flights": ["HAT030"]},
                                     "Error: flight HAT030 not available")),
        step("Try the other flight.", ("update_reservation_flights", {"flights": ["HAT031"]},
                                       "Error: flight HAT031 not available")),
    )
    # The value the error named was replaced: a new attempt that failed for its own reason.
    assert fixed.repeat_probability(0, 1) < 0.4


REFUSAL = ("Your reply held {n} command blocks; nothing was run. Send exactly one fenced "
           "block per reply, with one command or several joined by && or ||, and put any "
           "notes in the text around it. Example: a short thought, then the block.")


def refused(n: int) -> tuple[str, dict[str, str], str]:
    return ("format_error", {}, REFUSAL.format(n=n))


def test_refusals_in_a_row_are_a_lap_and_after_work_a_new_slip(backend: LocalBackend) -> None:
    lap = judgement(
        backend,
        step("Patch the parser with two commands.", refused(2)),
        step("Write it with printf and a run.", refused(3)),
        step("Append the line with echo then test.", refused(2)),
    )
    # Nothing ran: the refused replies are one failed approach whatever they held.
    assert lap.repeat_probability(1, 2) > 0.85 and lap.repeat_probability(0, 1) > 0.85
    assert lap.tool_repeat("format_error") > 0.85
    scattered = judgement(
        backend,
        step("Patch the parser with two commands.", refused(2)),
        step("Read the parser.", bash("sed -n 1,40p parse.py", "def parse(s): ...")),
        step("Edit the parser.", bash("sed -i 's/split()/split(\",\")/' parse.py", "")),
        step("Edit and test at once.", refused(2)),
        step("Run the test.", bash("pytest -q", "1 passed")),
        step("Clean up and diff at once.", refused(2)),
    )
    # Each refusal follows work that ran: a new slip, not a return to the first.
    assert scattered.repeat_probability(0, 3) <= 0.2
    assert scattered.repeat_probability(3, 5) <= 0.2
    assert scattered.stuck_probability(3) <= 0.2 and scattered.stuck_probability(5) <= 0.2
    assert scattered.tool_repeat("format_error") <= 0.2


def test_an_option_value_is_what_the_command_tries(backend: LocalBackend) -> None:
    err = "error: unbalanced parenthesis in the name pattern"
    j = judgement(
        backend,
        step("Try a comma list.", bash("lint --name-pattern='a,b' demo.py", err)),
        step("Try a space after the comma.", bash("lint --name-pattern='a, b' demo.py", err)),
        step("Try a doubled comma.", bash("lint --name-pattern='a,,b' demo.py", err)),
    )
    # Three inputs tried, one per call: a scan, not the same command resent.
    assert j.repeat_probability(0, 1) < 0.5 and j.repeat_probability(1, 2) < 0.5
    # A bare flag or a number stays a setting around the same command.
    k = judgement(
        backend,
        step("Run the linter.", bash("lint --strict --jobs=2 demo.py", err)),
        step("Run it verbose.", bash("lint --verbose --jobs=4 demo.py", err)),
    )
    assert k.repeat_probability(0, 1) > 0.85


def test_an_edit_reapplied_to_look_at_something_new_is_a_toggle(
    backend: LocalBackend,
) -> None:
    fix = bash("sed -i '40,44d' src/table.py", "")
    restore = bash("git checkout src/table.py", "Updated 1 path from the index")
    fail = "1 failed: test_mixin"
    lap = [
        step("Start from the original file.", restore),
        step("Apply the fix.", fix),
        step("Run the mixin tests.", bash("pytest tests/test_mixin.py", "1 passed")),
        step("Undo it to compare.", restore),
        step("The mixin tests on the old code.", bash("pytest tests/test_mixin.py", fail)),
    ]
    j = judgement(backend, *lap, step("Apply the fix again.", fix),
                  step("Run the whole table suite.", bash("pytest tests/test_table.py",
                                                          "1 failed: test_values_equal")))
    # Re-applied to run a test never run before: a new attempt, not a lap.
    assert j.repeat_probability(1, 5) <= 0.2
    again = [step("Apply the fix again.", fix),
             step("Run the mixin tests again.", bash("pytest tests/test_mixin.py", "1 passed"))]
    k = judgement(backend, *lap, *again)
    # Restore, re-run the tests on the old code, re-apply the fix, re-run: the lap made a
    # write of its own and then measured it with a look made before, so the re-applied fix
    # and the re-run are a new attempt (issue 13's healthy astropy and pytest runs).
    assert k.repeat_probability(1, 5) <= 0.2 and k.repeat_probability(2, 6) <= 0.2
    # The same lap once more re-makes only writes it made before: a toggle, a repeat.
    cycle = judgement(backend, *lap, *again, *lap[3:], *again)
    assert cycle.repeat_probability(5, 9) > 0.85 and cycle.repeat_probability(6, 10) > 0.85


def test_a_fixed_reply_sent_a_fourth_time_ignores_the_user(backend: LocalBackend) -> None:
    fixed = "Sorry, I did not get that. Could you say it another way?"
    asks = ["Please book the two seats we discussed.", "Go ahead with the booking, please.",
            "I confirm: book both seats now.", "Yes, book the seats as summarised.",
            "Please finalise the two-seat booking."]
    j = judgement(backend, step("Here is the summary of the two seats."),
                  *(turn(ask, fixed) for ask in asks))
    # The first three answer new words (as a restated refusal does); from the fourth on the
    # same text is sent whatever the customer writes.
    assert j.progress(2, 3) > 0.8
    assert j.progress(3, 4) < 0.2 and j.progress(4, 5) < 0.2


def test_a_lookup_by_another_key_or_id_is_another_target(backend: LocalBackend) -> None:
    # Round 6: one tool called by id twice and then by phone shares no key on every call;
    # the ids still name the target, and a lookup by phone is another target again.
    missing = "Error: no customer found"
    j = judgement(
        backend,
        turn("My customer ID is 123456789.", "Looking you up.",
             ("get_customer_details", {"customer_id": "123456789"}, missing)),
        turn("Sorry, it is 123456780.", "Looking you up.",
             ("get_customer_details", {"customer_id": "123456780"}, missing)),
        turn("My phone is +51987654321.", "Looking you up.",
             ("get_customer_details", {"customer_phone": "+51987654321"}, missing)),
    )
    assert j.repeat_probability(0, 1) < 0.3 and j.repeat_probability(1, 2) < 0.3
    assert j.tool_repeat("get_customer_details") < 0.3
    # The same id again with the same nothing, three times, is still one action.
    same = judgement(backend, *(step("Looking you up.",
                                     ("get_customer_details", {"customer_id": "123456789"},
                                      missing)) for _ in range(3)),
                     step("Looking you up.", ("get_customer_details",
                                              {"customer_phone": "+51987654321"}, missing)))
    assert same.repeat_probability(1, 2) > 0.85


def test_a_result_fetched_a_third_time_for_words_about_else_is_a_repeat(
        backend: LocalBackend) -> None:
    # Round 6: the same lookup, the same answer, three times, while the customer adds
    # details the call never uses: the agent is not answering them.
    lookup = ("search_waiting_list", {"rut": "99.999.999-9"},
              "RESULT: the patient has no pending referrals on the waiting list.")
    twice = [
        turn("I'd like to ask about a surgery. My RUT is 99.999.999-9.", "Checking.", lookup),
        step("You have no pending referrals. Which surgery do you mean?"),
        turn("I think it was my knee, I was expecting an update.", "Let me search again.",
             lookup),
        step("Still nothing. Do you remember when?"),
    ]
    j = judgement(backend, *twice, turn("Around June or July last year, through my clinic.",
                                        "A broader search.", lookup))
    assert j.repeat_probability(2, 4) > 0.85 and j.progress(3, 4) < 0.2
    # Twice is still the customer's request, as for a failure.
    assert judgement(backend, *twice).repeat_probability(0, 2) <= 0.2
    # One lookup fetched again for each new question about what it holds is the agent
    # using it: the words name a field of the result.
    hotel = {"check_in_time": "15:00", "check_out_time": "12:00",
             "breakfast_included": "True", "city": "Lima"}
    info = ("get_hotel_info", {}, json.dumps(hotel))
    k = judgement(
        backend,
        turn("I'm thinking of a stay in June.", "Let me look.", info),
        step("It's available."),
        turn("Could you clarify the check-in and check-out times?", "Checking.", info),
        step("Check-in is at 15:00 and check-out at noon."),
        turn("Is breakfast included in the rate?", "Checking.", info),
    )
    assert k.repeat_probability(2, 4) <= 0.2 and k.progress(3, 4) > 0.8


def test_a_value_the_user_supplied_is_a_new_target(backend: LocalBackend) -> None:
    # Round 6 held-out: a national id corrected by adding its check letter. Alone the two
    # values read as one id written two ways; the customer's words carrying the new one
    # say it is another target.
    lookup = "search_supplies_by_dni"

    def corrected(tool: str, first: str, said: str, second: str) -> LocalJudgement:
        # A lookup by the id the customer gave, then by the one they give after it failed.
        def failed(value: str) -> tuple[str, dict[str, str], str]:
            return (tool, {"user_id": value}, f"Error: customer with id '{value}' not found")

        return judgement(
            backend,
            turn(f"My id is {first}.", "Looking you up.", failed(first)),
            step(f"I couldn't find anything under {first}. Could you double-check it?"),
            turn(f"You're right, sorry! It's {said}.", "Looking you up.", failed(second)),
        )

    j = corrected(lookup, "99999999", "99999999A", "99999999A")
    assert j.repeat_probability(0, 2) <= 0.2 and j.tool_repeat(lookup) < 0.3
    # The customer may write it with separators the call leaves out (a RUT with its dots).
    written = corrected("get_patient_details", "12888999", "12.888.999-K", "12888999-K")
    assert written.repeat_probability(0, 2) <= 0.2
    # The agent writing the same id another way on its own is still the same id.
    own = judgement(
        backend,
        step("Looking the patient up.", ("get_patient", {"id": "PT-00872"}, "Error: not found")),
        step("Trying it without the dash.", ("get_patient", {"id": "pt00872"},
                                             "Error: not found")),
    )
    assert own.repeat_probability(0, 1) > 0.85
    # Another tool failing on the same id is not the same failed approach.
    other = judgement(
        backend,
        step("Looking you up.", (lookup, {"user_id": "99999999A"},
                                 "Error: customer with DNI '99999999A' not found")),
        step("Opening a ticket.", ("create_ticket", {"dni": "99999999A", "description": "outage"},
                                   "Error: customer with DNI '99999999A' not found")),
    )
    assert other.repeat_probability(0, 1) < 0.3


def test_a_placeholder_call_is_no_attempt_of_the_real_call(backend: LocalBackend) -> None:
    # Round 6 held-out: a lookup sent with a placeholder, then twice with the id the
    # customer gives, the second at their request. The placeholder's failure is not the
    # first of three identical failures.
    missing = "Error: the RUT entered does not exist in the registry"
    real = ("get_patient_details", {"rut": "12888999-0"}, missing)
    for placeholder in ("<user_rut>", "{rut}", "[RUT]"):
        asked = [
            step("Let me look you up.", ("get_patient_details", {"rut": placeholder}, missing)),
            step("Sorry, that RUT is not in our system. Could you give it to me?"),
            turn("Sure, it is 12.888.999-0.", "Checking.", real),
            step("I'm sorry, the RUT 12.888.999-0 is not in our system either."),
            turn("Maybe I typed it wrong. It is 12.888.999-0, could you check again?",
                 "Checking again.", real),
        ]
        j = judgement(backend, *asked)
        assert j.repeat_probability(2, 4) <= 0.2 and j.tool_repeat("get_patient_details") < 0.3
        # A third real failure is still the agent's own wall.
        third = judgement(backend, *asked, step("Still nothing."),
                          turn("Please, once more.", "Checking once more.", real))
        assert third.repeat_probability(4, 6) > 0.85


def test_a_report_after_the_first_call_answers_new_words(backend: LocalBackend) -> None:
    # Round 6 held-out: the request for an id, then the apology after the first lookup of
    # the id the customer gave, which asks for it again. The apology reports the result of
    # the customer's new words, not the earlier request said again.
    j = judgement(
        backend,
        step("Hi! How can I help you today?"),
        step("Before I can help you with that, could you please provide your carnet number? "
             "I need it to look up your request."),
        turn("Yes, I am a student. My carnet number is 123456789.", "Looking it up.",
             ("get_student_status", {"carnet": "123456789"},
              "Error: student with carnet 123456789 not found")),
        step("I'm sorry, but I couldn't find a student with that carnet number. Could you "
             "please double-check the number and provide it again?"),
    )
    assert j.stuck_probability(3) < 0.3


def test_a_new_id_the_agent_never_uses_is_the_same_result(backend: LocalBackend) -> None:
    # Round 8: a certificate sent three times, each output naming a freshly minted id that
    # no later step quotes or passes on: the same action with nothing new used.
    def issued(n: int) -> tuple[str, dict[str, Any], str]:
        return ("send_certificate", {"amount": 200, "user_id": "mei_brown_7075"},
                f"Certificate certificate_322132{n} added to user mei_brown_7075 with amount 200.")

    j = judgement(backend, *(step("Issuing the voucher.", issued(n)) for n in range(3)),
                  step("A $200 travel certificate has been issued to your account."))
    assert j.repeat_probability(0, 1) > 0.85 and j.repeat_probability(1, 2) > 0.85
    # The agent quoting the new id uses it: each call got news (a new ticket, a coupon).
    used = judgement(backend, *(step("Issuing the voucher.", issued(n)) for n in range(3)),
                     step("Your certificates are certificate_3221321 and certificate_3221322."))
    assert used.repeat_probability(0, 1) < 0.5 and used.repeat_probability(1, 2) < 0.5


def test_a_json_record_reply_is_embedded_by_its_first_words(backend: LocalBackend) -> None:
    # Round 8: an orchestrator replies with JSON records, nearly all ids and keys; the
    # embedded text is its first words, not a 256-token pass for every such step.
    record = json.dumps({"booking_confirmation": {"reservation_id": "HATHAT",
                                                  "user_id": "chen_lee_6825",
                                                  "flights": [{"flight_number": f"HAT{n:03d}",
                                                               "date": "2024-05-20"}
                                                              for n in range(40)]}})
    j = judgement(backend, step(record), step("Done."))
    assert len(j._embed_text(j.views[0]).split()) <= 20
    assert j._embed_text(j.views[1]) == "Done."  # a short text is embedded as written


def test_a_rotation_of_re_reads_over_an_unchanged_world_is_a_stretch(
    backend: LocalBackend,
) -> None:
    # Round 9: looks made again in turn, each with the answer it had, no write between.
    # No call comes back in the next step, and a targeted look sits between the
    # argument-free ones; the rotation is still one stretch of repeats.
    apn = ("check_apn", {}, "APN: internet, MMSC: set")
    perms = ("check_permissions", {"app": "messaging"}, "sms, storage")
    network = ("check_network", {}, "connected, 5G")
    lap = [step("Check the APN.", apn), step("Check the permissions.", perms),
           step("Check the network.", network)]
    stuck = judgement(backend, step("Set the APN.", ("set_apn", {"mms": "on"}, "ok")),
                      *lap, *lap)
    assert all(stuck.stuck_probability(j) > 0.85 for j in (4, 5, 6))
    # One look of the second lap is new (another app): the argument-free reads after it
    # follow work, as before.
    other = [step("Check the APN.", apn),
             step("Check the browser.", ("check_permissions", {"app": "browser"}, "none")),
             step("Check the network.", network)]
    moved = judgement(backend, step("Set the APN.", ("set_apn", {"mms": "on"}, "ok")),
                      *lap, *other)
    assert moved.stuck_probability(6) <= 0.2


def test_a_device_action_before_a_re_test_is_a_change_unless_every_lap_makes_it(
    backend: LocalBackend,
) -> None:
    # Round 9: an action with no arguments (a reboot) changes the state; the same test run
    # after it measures the change. A reboot made again on every lap is part of the cycle.
    mms = ("can_send_mms", {}, "Your messaging app cannot send MMS messages.")
    reboot = ("reboot_device", {}, "Restarting network services...")
    assert call_changes_state(Call.of("reboot_device", "{}", "Restarting network services..."))
    tried = judgement(
        backend,
        step("Turn data on.", ("toggle_data", {}, "Mobile Data is now ON.")),
        step("Test MMS.", mms),
        step("Reboot.", reboot),
        step("Test MMS again.", mms),
        step("Check Wi-Fi calling.", ("check_wifi_calling_status", {}, "OFF")),
    )
    assert tried.stuck_probability(3) <= 0.2
    laps = judgement(backend, step("Test MMS.", mms), step("Reboot.", reboot),
                     step("Test MMS.", mms), step("Reboot.", reboot), step("Test MMS.", mms))
    assert laps.stuck_probability(2) > 0.85 and laps.stuck_probability(4) > 0.85


def test_ids_the_agent_counts_up_that_all_fail_are_one_attempt(backend: LocalBackend) -> None:
    # Round 9: plan ids made up one after another, each "not found". Ids the run was given
    # (the customer's, an earlier output's) stay a scan over targets, as before.
    def plan(pid: str) -> dict[str, Any]:
        return step(f"Look up {pid}.", ("get_details_by_id", {"id": pid},
                                        f"Error: Plan with ID {pid} not found"))

    ids = ["P1006", "P1007", "P1008", "P1009"]
    guessed = judgement(backend, step("Known plans.", ("list_lines", {}, "L1001 P1002")),
                        *map(plan, ids))
    assert all(guessed.stuck_probability(j) > 0.85 for j in (3, 4))
    given = judgement(backend, step("Known plans.", ("list_lines", {}, " ".join(ids))),
                      *map(plan, ids))
    assert all(given.stuck_probability(j) <= 0.2 for j in (2, 3, 4))


_PRINTER = ("get_printer_record", {"printer": "PR-7"},
            json.dumps({"model": "LX-40", "state": "ready", "owner": "Dana"}))
_ASKS = ["Does its panel show a light?", "Please open the front cover and reseat the toner.",
         "Pull out the tray and straighten the sheets.", "Glad it works now."]


def _desk(backend: LocalBackend, said: list[str], replies: list[str],
          *, looks: int = 1) -> LocalJudgement:
    """A help desk: per customer message, the printer record looked at ``looks`` times in a
    row (the first in the step that answers the message), then a reply."""
    again = [step("Checking once more.", _PRINTER)] * (looks - 1)
    return judgement(backend, *(s for user, reply in zip(said, replies, strict=True)
                                for s in (turn(user, "One moment.", _PRINTER), *again,
                                          step(reply))))


def test_a_record_checked_before_each_reply_to_a_new_report_is_no_repeat(
        backend: LocalBackend) -> None:
    # Round 9's tic read: the agent looks at the same record before every reply while the
    # customer reports a new finding each time and the agent asks for a new check.
    def desk(said: list[str], replies: list[str]) -> LocalJudgement:
        return _desk(backend, said, replies)

    asks = _ASKS
    helped = desk(["My office printer won't print anything.", "The toner light blinks orange.",
                   "Reseated; now the paper tray icon flashes.", "That fixed it, thanks!"], asks)
    assert all(helped.stuck_probability(j) <= 0.2 for j in (4, 6))
    # The customer only says the same thing again: the same look is the agent stuck.
    said_again = desk(["It won't print.", "It still won't print.", "Still, it won't print.",
                       "It won't print, still."], asks)
    assert said_again.stuck_probability(6) > 0.85
    # Replies that name the record's key report the look once more: the look is the
    # attempt, and new details from the customer do not make it a new one.
    reported = desk(["My office printer won't print anything.", "The toner light blinks orange.",
                     "Since Monday, after the cleaner moved it."],
                    ["PR-7 shows no fault.", "PR-7 still shows no fault. When did it start?",
                     "PR-7 still shows no fault on our side."])
    assert reported.stuck_probability(4) > 0.85


def test_a_record_looked_at_twice_before_the_reply_is_still_that_check(
        backend: LocalBackend) -> None:
    # Round 11's azure-gpt-4o-telecom#7: after the customer's new report the agent reads the
    # record, reads it again in the next step (nothing in between), then asks for a new check.
    # The second look does not make the first one the agent's own lap.
    def desk(said: list[str], replies: list[str]) -> LocalJudgement:
        return _desk(backend, said, replies, looks=2)

    asks = _ASKS[:3]
    helped = desk(["My office printer won't print anything.", "The toner light blinks orange.",
                   "Reseated; now the paper tray icon flashes."], asks)
    assert all(helped.repeat_probability(k, 6) <= 0.2 for k in range(6))
    # The same reply sent again after the doubled look is no new check: still a repeat.
    same_ask = desk(["My office printer won't print anything.", "The toner light blinks orange.",
                     "Reseated; now the paper tray icon flashes."], [asks[0]] * 3)
    assert same_ask.repeat_probability(3, 6) > 0.85


def test_a_lap_that_writes_again_what_it_wrote_is_the_same_attempt(
        backend: LocalBackend) -> None:
    # Round 10: each lap cancels the reservation again (already cancelled: the same record
    # back), retries a bag update and sends the same refused booking, while the customer
    # asks to try again. The cancellation is a write, but sent again as it was it changes
    # nothing, and the booking refused a third time is the agent's own: the lap repeats.
    cancel = ("cancel_reservation", {"reservation_id": "3RK2T9"},
              json.dumps({"reservation_id": "3RK2T9", "status": "cancelled", "payment_history":
                          [{"payment_id": "gift_card_2550356", "amount": 66}]}))
    bags = ("update_reservation_baggages",
            {"reservation_id": "3RK2T9", "payment_id": "visa_4421"},
            "Error: Payment method not found")
    book = ("book_reservation", {"flight": "HAT083", "payment_id": "visa_4421"},
            "Error: Payment method visa_4421 not found")
    j = judgement(
        backend,
        turn("Please refund it to my Visa card ending in 4421.", "Refunding.", cancel, bags, book),
        step("There was an issue with the payment method."),
        turn("Yes, please try again with my Visa card 4421.", "Trying again.", cancel, bags, book),
        step("I apologize for the repeated errors."),
        turn("Please try again and process the refund to my Visa card.", "Once more.",
             cancel, bags, book),
    )
    assert j.repeat_probability(2, 4) > 0.85
    # A look fetched again for new words about its result still answers them (the hotel
    # information asked about field by field, above).


def test_a_click_or_keystrokes_change_the_page_the_next_look_reads(
        backend: LocalBackend) -> None:
    # Round 12 (OpenHands, browser tools): log in, look, open a folder, look again. The look
    # takes no target; the click between the two looks changed the page.
    assert call_changes_state(Call.of("browser_click", '{"index": 9}', "Clicked element 9"))
    assert call_changes_state(Call.of("page.type", '{"text": "x"}', "Typed 'x'"))
    assert call_changes_state(Call.of("navigate", '{"url": "http://a"}', "Navigated to a"))
    assert not call_changes_state(Call.of("browser_get_state", "{}", '{"url": "http://a"}'))
    assert not call_changes_state(Call.of("get_type", '{"id": "P1"}', "phone"))
    assert not call_changes_state(
        Call.of("browser_click", '{"index": 9}', "Element with index 9 not found"))
    page = json.dumps({"url": "http://files/?dir=%2F", "elements": ["Documents", "Photos"]})
    look = ("browser_get_state", {"include_screenshot": False}, page)
    opened = judgement(
        backend,
        step("", ("browser_click", {"index": 7}, "Clicked element 7")),
        step("", look),
        step("", ("browser_click", {"index": 1242}, "Clicked element 1242")),
        step("", look),
    )
    assert opened.repeat_probability(1, 3) < 0.2
    # The same click again on a page that does not change: the lap repeats.
    stuck = judgement(
        backend, *(step("", s) for s in [("browser_click", {"index": 1233}, "Clicked element 1233"),
                                         look] * 3))
    assert stuck.repeat_probability(3, 5) > 0.85 and stuck.repeat_probability(2, 4) > 0.85


def test_a_parameter_name_quoted_in_an_error_is_no_kept_value(backend: LocalBackend) -> None:
    # Round 12: the editor's view of a missing file, then of each parent directory, each
    # "Invalid `path` parameter": a new path each time, not one failed path kept.
    def view(path: str) -> tuple[str, dict[str, str], str]:
        return ("str_replace_editor", {"command": "view", "path": path},
                f"Invalid `path` parameter: {path}. The path {path} does not exist.")

    walked = judgement(backend, step("", view("/w/svc/verification/rate_limiter.py")),
                       step("", view("/w/svc/verification")), step("", view("/w/svc")))
    assert walked.repeat_probability(0, 1) < 0.2 and walked.repeat_probability(1, 2) < 0.2
    # An error naming a value both calls passed still keeps the culprit.
    book = [("book_flight", {"flight": "HAT030", "seat": seat},
             "Error: flight HAT030 not available") for seat in ("12A", "14C")]
    kept = judgement(backend, step("", book[0]), step("", book[1]))
    assert kept.repeat_probability(0, 1) > 0.85


def test_a_result_fetched_again_for_words_said_before_is_a_repeat(
        backend: LocalBackend) -> None:
    # Round 16: one search sent again after each rejection, the same flights each time, the
    # agent offering another that does not fit. The customer's "flight" (and "EST", a part
    # of a field name of every result) were said before: nothing new of the result is named,
    # so a third time it is the agent's repeat.
    flights = json.dumps([{"flight_number": "HAT057", "origin": "JFK", "destination": "ATL",
                           "scheduled_departure_time_est": "07:00:00"}])
    search = ("search_onestop_flight", {"origin": "JFK", "destination": "SEA",
                                        "date": "2024-05-20"}, flights)
    j = judgement(
        backend,
        turn("I need a flight from New York to Seattle after 11am EST.", "Searching.", search),
        step("HAT057 leaves New York at 7am."),
        turn("That flight departs before 11am EST. Could you check again?", "Searching.", search),
        step("HAT136 leaves after 11am."),
        turn("That flight only goes to Atlanta. Please check again.", "Searching.", search),
    )
    assert j.repeat_probability(2, 4) > 0.85
