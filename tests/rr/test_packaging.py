"""rr is a distribution of its own: the wheel holds rr alone and needs NumPy and SciPy, no Flask."""

import email
import shutil
import subprocess
import sys
import zipfile

from tests.servers import ROOT


def test_the_wheel_holds_rr_alone_and_needs_no_web_framework(tmp_path):
    # Built from a copy (setuptools writes build/ beside its input) without build isolation, so
    # that no network is needed: setuptools comes from requirements-dev.txt.
    source = tmp_path / "source"
    shutil.copytree(ROOT / "rr", source / "rr", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("rr-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata_name = next(name for name in names if name.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(metadata_name))
    packages = {
        name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")
    }
    assert packages == {"rr"}
    assert "rr/estimate.py" in names and "rr/_validate.py" in names
    requirements = {requirement.split(">")[0].split("<")[0].strip().lower()
                    for requirement in metadata.get_all("Requires-Dist")}  # fmt: skip
    assert requirements == {"numpy", "scipy"}
