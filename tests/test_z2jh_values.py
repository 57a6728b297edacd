"""deploy/z2jh/values.yaml, the Zero to JupyterHub values of a class: no Kubernetes runs here, so
every key is checked against the chart's schema keys (deploy/z2jh/schema-keys-2.0.0.txt, with
their source), and the limits against each other and the image."""
import pathlib
import re

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
Z2JH = ROOT / "deploy" / "z2jh"

TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object",
         type(None): "null"}


def schema():
    keys = {}
    for line in (Z2JH / "schema-keys-2.0.0.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, types = line.split()
            keys[key] = set(types.split(","))
    return keys


def leaves(tree, prefix=""):
    for k, v in tree.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            yield from leaves(v, path + ".")
        else:
            yield path, v


def size(s):
    """Kubernetes (2G, 512M, 1Gi) or gptnotes (1536MiB) sizes, in bytes."""
    m = re.fullmatch(r"([\d.]+)\s*([KMGT]?)(i?)B?", str(s))
    assert m, s
    base = 1024 if m.group(3) or str(s).endswith("iB") else 1000
    return float(m.group(1)) * base ** " KMGT".index(m.group(2) or " ")


def test_every_key_is_in_the_charts_schema():
    keys = schema()
    values = yaml.safe_load((Z2JH / "values.yaml").read_text())
    for path, v in leaves(values):
        open_parent = next((k for k in keys if k.endswith(".*") and path.startswith(k[:-1])), None)
        if open_parent:
            continue
        assert path in keys, f"{path} is not a key of the chart's schema (schema-keys-2.0.0.txt)"
        [allowed] = keys[path] if len(keys[path]) == 1 else [None]
        if allowed and allowed.startswith("enum:"):
            assert v in allowed[5:].split("|"), f"{path}: {v!r} is not one of {allowed[5:]}"
            continue
        t = "number" if type(v) is int and "number" in keys[path] and "integer" not in keys[path] else TYPES[type(v)]
        assert t in keys[path], f"{path}: {v!r} is {t}, the schema wants {keys[path]}"


def test_limits_fit_together():
    su = yaml.safe_load((Z2JH / "values.yaml").read_text())["singleuser"]
    assert size(su["memory"]["guarantee"]) <= size(su["memory"]["limit"])
    assert su["cpu"]["guarantee"] <= su["cpu"]["limit"]
    kernel = size(su["extraEnv"]["GPTNOTES_MEMORY_LIMIT"])
    # Below the pod's limit by at least a server's peak and the guard's overshoot.
    assert kernel + 256 * 2**20 <= size(su["memory"]["limit"]), (kernel, su["memory"]["limit"])
    assert su["extraEnv"]["GOMAXPROCS"] == "1"


def test_values_use_what_the_image_provides():
    su = yaml.safe_load((Z2JH / "values.yaml").read_text())["singleuser"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"/usr/local/bin/{su['cmd']}" in dockerfile
    assert f"--uid {su['uid']} --gid {su['fsGid']}" in dockerfile
    assert su["storage"]["homeMountPath"] == "/home/student"
    assert su["defaultUrl"] == "/tree/gptnotes"  # where start-singleuser puts the course


def test_students_pods_have_no_egress_and_one_login_each():
    """Issue 48: the Kubernetes class as the Docker one, configured only (no cluster here)."""
    values = yaml.safe_load((Z2JH / "values.yaml").read_text())
    policy = values["singleuser"]["networkPolicy"]
    assert policy["enabled"] is True
    rules = policy["egressAllowRules"]
    assert not any(rules[k] for k in ("cloudMetadataServer", "dnsPortsPrivateIPs", "nonPrivateIPs", "privateIPs"))
    assert values["singleuser"]["allowPrivilegeEscalation"] is False
    config = values["hub"]["config"]
    assert config["JupyterHub"]["authenticator_class"] not in ("dummy", "null", "jupyterhub.auth.DummyAuthenticator")
    assert config["Authenticator"]["admin_users"] == ["teacher"]
