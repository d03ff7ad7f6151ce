"""The measuring half of Tests/Benchmarks/gallery, as a stock grpcio client on loopback:

  gallery_bench.py scene IDENTITY FAMILY MAILDIR SCENE_FILE    an owner with a profile: writes "profile token"
  gallery_bench.py upload FAMILY SCENE_FILE ROUNDS             upload time of a 10 MB JPEG, ROUNDS times
  gallery_bench.py download-body FAMILY SCENE_FILE BODY_FILE   uploads a 2 MB JPEG; writes the gRPC-framed
                                                               DownloadPhotoRequest h2load sends
  gallery_bench.py memory FAMILY SCENE_FILE PID CALLS          the service's RSS (sampled every 5 ms) before
                                                               and while CALLS uploads of 10 MB run at once
Each prints Markdown table rows.
"""

import os
import pathlib
import statistics
import struct
import sys
import threading
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(pathlib.Path(__file__).resolve().parents[2] / "proto")

import grpc  # noqa: E402
from accounts_support import PASSWORD, mailed_token, register  # noqa: E402
from kindred.family.v1 import baby_gallery_pb2 as gallery  # noqa: E402
from kindred.family.v1 import baby_profiles_pb2 as profiles  # noqa: E402
from kindred.family.v1 import family_pb2_grpc  # noqa: E402
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc  # noqa: E402
from test_gallery_wire import jpeg_of_about, upload  # noqa: E402

MB = 1024 * 1024


def family_stub(target):
    return family_pb2_grpc.FamilyServiceStub(grpc.insecure_channel(target, options=[
        ("grpc.max_receive_message_length", 8 * MB)]))


def scene(identity_target, family_target, maildir, scene_file):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    with grpc.insecure_channel(identity_target) as channel:
        identity = identity_pb2_grpc.IdentityServiceStub(channel)
        name = "gallery_" + uuid.uuid4().hex[:10]
        register(identity, name, f"{name}@example.com")
        identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(f"{name}@example.com")), timeout=10)
        token = identity.Token(identity_pb2.TokenRequest(
            grant_type="password", username=name, password=PASSWORD), timeout=10).access_token
    profile = family_stub(family_target).CreateBabyProfile(
        profiles.CreateBabyProfileRequest(request_id="bench", name="Bench"),
        metadata=[("authorization", f"Bearer {token}")], timeout=10).profile.profile_id
    pathlib.Path(scene_file).write_text(f"{profile} {token}\n")


def read_scene(scene_file):
    return pathlib.Path(scene_file).read_text().split()


def upload_time(family_target, scene_file, rounds):
    profile, token = read_scene(scene_file)
    family = family_stub(family_target)
    photo = jpeg_of_about(10 * MB)
    upload(family, token, profile, photo)  # warm-up: connection, first directory
    times = []
    for _ in range(int(rounds)):
        started = time.perf_counter()
        upload(family, token, profile, photo)
        times.append((time.perf_counter() - started) * 1000)
    print(f"| UploadPhoto, one {len(photo) / MB:.2f} MiB JPEG in 1 MiB chunks, {rounds} runs | "
          f"median {statistics.median(times):.0f} ms, min {min(times):.0f} ms, max {max(times):.0f} ms |")


def download_body(family_target, scene_file, body_file):
    profile, token = read_scene(scene_file)
    photo = upload(family_stub(family_target), token, profile, jpeg_of_about(2 * MB))
    request = gallery.DownloadPhotoRequest(profile_id=profile, photo_id=photo.photo_id).SerializeToString()
    pathlib.Path(body_file).write_bytes(b"\x00" + struct.pack(">I", len(request)) + request)
    print(f"| DownloadPhoto body: photo {photo.photo_id}, {photo.byte_count / MB:.2f} MiB |")


def rss_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def memory(family_target, scene_file, pid, calls):
    profile, token = read_scene(scene_file)
    photo = jpeg_of_about(10 * MB)
    before = rss_kib(pid)
    peak, done, errors = [before], threading.Event(), []

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.005)

    def one():
        try:
            upload(family_stub(family_target), token, profile, photo)
        except grpc.RpcError as error:
            errors.append(error.code())

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    uploads = [threading.Thread(target=one) for _ in range(int(calls))]
    for thread in uploads:
        thread.start()
    for thread in uploads:
        thread.join()
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    print(f"| {calls} uploads of {len(photo) / MB:.2f} MiB at once ({len(errors)} refused: {errors[:3]}) | "
          f"RSS before {before / 1024:.0f} MiB, peak {peak[0] / 1024:.0f} MiB "
          f"(+{(peak[0] - before) / 1024:.0f} MiB), all done in {elapsed:.1f} s |")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"scene": scene, "upload": upload_time, "download-body": download_body, "memory": memory}[command](*arguments)
