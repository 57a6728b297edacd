"""deploy/start-singleuser, every student server's first step: the course's notebooks a student
lacks are copied into ~/gptnotes, theirs are never overwritten, and then it becomes
jupyterhub-singleuser under a hub or `gptnotes notebook` alone (both replaced here by stand-ins
that print their arguments)."""
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "start-singleuser"


def run(tmp_path, env):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("jupyterhub-singleuser", "gptnotes"):
        stand_in = bin_dir / name
        stand_in.write_text(f'#!/bin/sh\necho {name} "$@"\n')
        stand_in.chmod(0o755)
    full = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path / "home"),
            "GPTNOTES_COURSE": str(ROOT / "notebooks"), **env}
    return subprocess.run([str(SCRIPT), "--port=1234"], env=full, capture_output=True, text=True,
                          check=True, timeout=30).stdout


def test_copies_what_is_absent_and_keeps_the_students_work(tmp_path):
    mine = tmp_path / "home" / "gptnotes" / "01-tokenizer.ipynb"
    mine.parent.mkdir(parents=True)
    mine.write_text("my answers")
    out = run(tmp_path, {"JUPYTERHUB_API_TOKEN": "t"})
    assert out == "jupyterhub-singleuser --port=1234\n"
    course = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")
                    if not p.name.endswith("-solutions.ipynb"))
    assert sorted(os.listdir(mine.parent)) == course
    assert mine.read_text() == "my answers"


def test_an_update_brings_new_notebooks_and_leaves_changed_ones(tmp_path):
    course = tmp_path / "course"
    course.mkdir()
    (course / "a.ipynb").write_text("a, first edition")
    run(tmp_path, {"JUPYTERHUB_API_TOKEN": "t", "GPTNOTES_COURSE": str(course)})
    (course / "a.ipynb").write_text("a, second edition")
    (course / "b.ipynb").write_text("b")
    run(tmp_path, {"JUPYTERHUB_API_TOKEN": "t", "GPTNOTES_COURSE": str(course)})
    home = tmp_path / "home" / "gptnotes"
    assert (home / "a.ipynb").read_text() == "a, first edition"  # the student's copy stays
    assert (home / "b.ipynb").read_text() == "b"


def test_alone_it_starts_gptnotes_notebook_on_the_course(tmp_path):
    out = run(tmp_path, {})
    assert out == f"gptnotes notebook --notebook-dir={tmp_path}/home/gptnotes --port=1234\n"


def test_solutions_go_to_teachers_and_to_students_once_released(tmp_path):
    course = tmp_path / "course"
    (course / "released").mkdir(parents=True)
    (course / "a.ipynb").write_text("a")
    (course / "a-solutions.ipynb").write_text("a solved")  # in the course directory by mistake
    (course / "b-solutions.ipynb").write_text("b solved")
    teachers = tmp_path / "solutions"
    teachers.mkdir()
    (teachers / "a-solutions.ipynb").write_text("a solved")
    (teachers / "b-solutions.ipynb").write_text("b solved")
    env = {"JUPYTERHUB_API_TOKEN": "t", "GPTNOTES_COURSE": str(course)}
    student = tmp_path / "home" / "gptnotes"
    run(tmp_path, env)
    assert sorted(os.listdir(student)) == ["a.ipynb"]
    (course / "released" / "a-solutions.ipynb").write_text("a solved")  # the teacher releases one
    run(tmp_path, env)
    assert sorted(os.listdir(student)) == ["a-solutions.ipynb", "a.ipynb"]
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    run(teacher, {**env, "GPTNOTES_SOLUTIONS": str(teachers)})
    assert sorted(os.listdir(teacher / "home" / "gptnotes")) == [
        "a-solutions.ipynb", "a.ipynb", "b-solutions.ipynb"]
