"""A PEP 517 build backend for the kit, standard library only, so installing needs no index.

It packs lanes_worker/ into a pure-Python wheel (and the tree into an sdist); name, version and
the Python it needs are read from pyproject.toml's [project] table.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "lanes_worker"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    field = lambda key: re.search(r'^%s\s*=\s*"([^"]*)"' % key, table, re.M).group(1)
    return {"name": field("name"), "version": field("version"), "summary": field("description"), "python": field("requires-python")}


def _metadata(p):
    return "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: %s\nLicense: MIT\n" % (p["name"], p["version"], p["summary"], p["python"])


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _sources():
    base = os.path.join(ROOT, PACKAGE)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            with open(os.path.join(base, name), "rb") as f:
                yield "%s/%s" % (PACKAGE, name), f.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    dist = "%s-%s" % (p["name"].replace("-", "_"), p["version"])
    files = list(_sources())
    files.append(("%s.dist-info/METADATA" % dist, _metadata(p).encode()))
    files.append(("%s.dist-info/WHEEL" % dist, b"Wheel-Version: 1.0\nGenerator: lanes_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "".join("%s,%s,%d\n" % (name, _digest(data), len(data)) for name, data in files)
    files.append(("%s.dist-info/RECORD" % dist, (record + "%s.dist-info/RECORD,,\n" % dist).encode()))
    wheel = "%s-py3-none-any.whl" % dist
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(name, data)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    dist = "%s-%s" % (p["name"].replace("-", "_"), p["version"])
    sdist = dist + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist), "w:gz") as tar:
        for rel in ["pyproject.toml", "_build/lanes_build.py"] + [name for name, _ in _sources()]:
            tar.add(os.path.join(ROOT, rel), arcname="%s/%s" % (dist, rel))
        info = _metadata(p).encode()
        entry = tarfile.TarInfo("%s/PKG-INFO" % dist)
        entry.size = len(info)
        tar.addfile(entry, io.BytesIO(info))
    return sdist
