"""What the deploy tests share: the repository's paths and the four services with their ports."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
SERVICES = {"identity": 50051, "family": 50052, "social": 50053, "gamification": 50054}
