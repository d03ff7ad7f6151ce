"""`kubectl kustomize` renders the base and every overlay, and the rendered objects hold to what an operator
relies on: gRPC probes, limits and a locked-down security context on every pod; a PDB, an HPA, a NetworkPolicy
and a migration Job per service; peers allowed exactly where the code calls them; no secret in a ConfigMap."""

import re
import shutil
import subprocess

import pytest
import yaml

from conftest import DEPLOY, REPO, SERVICES

K8S = DEPLOY / "k8s"
RENDERED = ["base", "overlays/small", "overlays/production"]


def render(path):
    done = subprocess.run(
        ["kubectl", "kustomize", str(K8S / path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"kubectl kustomize {path} failed: {done.stderr}"
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


@pytest.fixture(scope="module", params=RENDERED)
def objects(request):
    if shutil.which("kubectl") is None:
        pytest.fail("kubectl is not on PATH: it renders the manifests")
    return render(request.param)


def of_kind(objects, kind):
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def pod_specs(objects):
    """Every pod template: the Deployments' and the migration Jobs'."""
    for kind in ("Deployment", "Job"):
        for name, o in of_kind(objects, kind).items():
            yield f"{kind} {name}", o["spec"]["template"]


def selects(selector, labels):
    return all(labels.get(key) == value for key, value in selector.get("matchLabels", {}).items())


def calls_in_code():
    """Who calls whom, read from each service's code (`environment.peers.<peer>`), plus identity for every
    other service: the runtime fetches identity's signing keys (ServiceRunner.signingKeys)."""
    calls = {}
    for name in SERVICES:
        text = "".join(
            path.read_text() for path in (REPO / "Services" / name.capitalize()).rglob("*.swift")
        )
        peers = set(re.findall(r"environment\.peers\.(identity|family|social|gamification)", text))
        if name != "identity":
            peers.add("identity")
        calls[name] = peers - {name}
    return calls


def test_every_service_has_its_objects(objects):
    for name in SERVICES:
        app = f"kindred-{name}"
        for kind in ("Deployment", "Service", "ServiceAccount", "PodDisruptionBudget",
                     "HorizontalPodAutoscaler", "NetworkPolicy"):
            assert app in of_kind(objects, kind), f"{kind} {app} is missing"
        assert f"{app}-headless" in of_kind(objects, "Service"), f"headless Service of {app} is missing"
        assert f"{app}-migrate" in of_kind(objects, "Job"), f"migration Job of {app} is missing"


def test_deployments_probe_health_over_grpc(objects):
    liveness = re.search(
        r'static let livenessName = "([^"]+)"',
        (REPO / "Shared/KindredRuntime/StandardServices.swift").read_text(),
    ).group(1)
    for name, deployment in of_kind(objects, "Deployment").items():
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            grpc_ports = {p["containerPort"] for p in container["ports"] if p["name"] == "grpc"}
            ready, live = container["readinessProbe"], container["livenessProbe"]
            assert ready["grpc"]["port"] in grpc_ports, f"{name}: readiness probes another port"
            assert ready["grpc"]["service"] == "", f"{name}: readiness must follow the whole process"
            # Liveness must not follow PostgreSQL, or an outage restarts every pod.
            assert live["grpc"] == {"port": ready["grpc"]["port"], "service": liveness}, name
            assert container["startupProbe"]["grpc"]["service"] == liveness, name


def test_every_pod_is_limited_and_locked_down(objects):
    for where, template in pod_specs(objects):
        spec = template["spec"]
        assert spec.get("automountServiceAccountToken") is False, f"{where} mounts an API token"
        assert spec["securityContext"]["runAsNonRoot"] is True, where
        assert spec["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault", where
        for container in spec["containers"]:
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True, where
            assert context["allowPrivilegeEscalation"] is False, where
            assert context["capabilities"]["drop"] == ["ALL"], where
            assert context.get("runAsNonRoot", True) is True, where
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(container["resources"][bound]), f"{where}: no {bound}"


def test_service_accounts_hold_no_token(objects):
    accounts = of_kind(objects, "ServiceAccount")
    for where, template in pod_specs(objects):
        account = accounts[template["spec"]["serviceAccountName"]]
        assert account["automountServiceAccountToken"] is False, where


def test_budgets_and_autoscalers_fit_their_deployments(objects):
    deployments = of_kind(objects, "Deployment")
    for name, deployment in deployments.items():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        budget = of_kind(objects, "PodDisruptionBudget")[name]
        autoscaler = of_kind(objects, "HorizontalPodAutoscaler")[name]
        assert selects(budget["spec"]["selector"], labels), f"PDB {name} selects other pods"
        assert autoscaler["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1", "kind": "Deployment", "name": name}
        low, high = autoscaler["spec"]["minReplicas"], autoscaler["spec"]["maxReplicas"]
        assert 1 <= low <= deployment["spec"]["replicas"] <= high, name
        # A budget that needs every pod the autoscaler may leave blocks every node drain.
        if "minAvailable" in budget["spec"]:
            assert budget["spec"]["minAvailable"] < low, f"PDB {name} blocks every eviction"
        else:
            assert budget["spec"]["maxUnavailable"] >= 1, name


def test_services_route_to_server_pods_only(objects):
    for name in SERVICES:
        pods = of_kind(objects, "Deployment")[f"kindred-{name}"]["spec"]["template"]["metadata"]["labels"]
        job = of_kind(objects, "Job")[f"kindred-{name}-migrate"]["spec"]["template"]["metadata"]["labels"]
        for service_name in (f"kindred-{name}", f"kindred-{name}-headless"):
            service = of_kind(objects, "Service")[service_name]
            assert selects({"matchLabels": service["spec"]["selector"]}, pods), service_name
            assert not selects({"matchLabels": service["spec"]["selector"]}, job), service_name
            assert [p["port"] for p in service["spec"]["ports"]] == [SERVICES[name]], service_name
        assert of_kind(objects, "Service")[f"kindred-{name}-headless"]["spec"]["clusterIP"] == "None"


def peers_allowed(rules, direction):
    peers = set()
    for rule in rules:
        for peer in rule.get(direction, []):
            name = peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/name")
            if name and "namespaceSelector" not in peer:
                peers.add(name.removeprefix("kindred-"))
    return peers


def test_network_policies_allow_exactly_the_calls_the_code_makes(objects):
    calls = calls_in_code()
    policies = of_kind(objects, "NetworkPolicy")
    for name in SERVICES:
        policy = policies[f"kindred-{name}"]
        pods = of_kind(objects, "Deployment")[f"kindred-{name}"]["spec"]["template"]["metadata"]["labels"]
        assert selects(policy["spec"]["podSelector"], pods), name
        assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}, name
        callers = {caller for caller, peers in calls.items() if name in peers}
        assert peers_allowed(policy["spec"]["ingress"], "from") == callers, f"who may call {name}"
        assert peers_allowed(policy["spec"]["egress"], "to") == calls[name], f"whom {name} may call"
    assert of_kind(objects, "NetworkPolicy")["kindred-default-deny"]["spec"]["podSelector"] == {}


SECRET_NAME = re.compile(r"password|secret|token|credential|private|(^|_)key($|_)", re.IGNORECASE)
URL_WITH_CREDENTIALS = re.compile(r"://[^/@\s]+:[^/@\s]*@")


def test_no_secret_in_a_config_map(objects):
    maps = of_kind(objects, "ConfigMap")
    assert maps, "no ConfigMap rendered"
    for name, config in maps.items():
        for key, value in config.get("data", {}).items():
            assert not SECRET_NAME.search(key), f"ConfigMap {name} holds {key}"
            assert not URL_WITH_CREDENTIALS.search(value), f"ConfigMap {name}: {key} carries credentials"


def test_secrets_come_from_secrets(objects):
    for where, template in pod_specs(objects):
        for container in template["spec"]["containers"]:
            for variable in container.get("env", []):
                if SECRET_NAME.search(variable["name"]) or variable["name"].endswith("DATABASE_URL"):
                    assert "secretKeyRef" in variable.get("valueFrom", {}), f"{where}: {variable['name']}"


def test_secrets_the_pods_read_are_documented(objects):
    readme = (K8S / "README.md").read_text()
    for where, template in pod_specs(objects):
        wanted = [
            (v["valueFrom"]["secretKeyRef"]["name"], v["valueFrom"]["secretKeyRef"]["key"])
            for c in template["spec"]["containers"] for v in c.get("env", [])
            if "secretKeyRef" in v.get("valueFrom", {})
        ] + [
            (volume["secret"]["secretName"], item["key"])
            for volume in template["spec"].get("volumes", []) if "secret" in volume
            for item in volume["secret"]["items"]
        ]
        for secret, key in wanted:
            assert f"`{secret}`" in readme and f"`{key}`" in readme, f"{where}: {secret}/{key} undocumented"


def test_metrics_are_announced_on_the_metrics_port(objects):
    for name, deployment in of_kind(objects, "Deployment").items():
        template = deployment["spec"]["template"]
        annotations = template["metadata"]["annotations"]
        ports = {p["name"]: p["containerPort"] for c in template["spec"]["containers"] for p in c["ports"]}
        assert annotations["prometheus.io/scrape"] == "true", name
        assert int(annotations["prometheus.io/port"]) == ports["metrics"] == 9090, name


def test_servers_leave_migrations_to_the_job(objects):
    for name in SERVICES:
        server = of_kind(objects, "Deployment")[f"kindred-{name}"]["spec"]["template"]["spec"]
        job = of_kind(objects, "Job")[f"kindred-{name}-migrate"]["spec"]["template"]["spec"]
        assert server["containers"][0]["command"] == [f"kindred-{name}", "serve", "--no-migrate"]
        assert job["containers"][0]["command"] == [f"kindred-{name}", "migrate"]
        assert job["restartPolicy"] == "Never"
        assert job["containers"][0]["image"] == server["containers"][0]["image"], name


def test_overlays_size_the_cluster():
    small, production = render("overlays/small"), render("overlays/production")
    for name in SERVICES:
        app = f"kindred-{name}"
        small_hpa = of_kind(small, "HorizontalPodAutoscaler")[app]["spec"]
        production_hpa = of_kind(production, "HorizontalPodAutoscaler")[app]["spec"]
        assert small_hpa["maxReplicas"] < production_hpa["maxReplicas"], app
        assert production_hpa["minReplicas"] >= 3, app
        assert of_kind(production, "PodDisruptionBudget")[app]["spec"]["minAvailable"] >= 2, app
        for objects in (small, production):
            image = of_kind(objects, "Deployment")[app]["spec"]["template"]["spec"]["containers"][0]["image"]
            assert ":" in image and not image.endswith(":latest"), f"{app} runs an unpinned image {image}"
