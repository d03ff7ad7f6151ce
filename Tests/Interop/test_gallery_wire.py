"""kindred-family's photo gallery (issue 14) as a stock grpcio client sees it: a real 8 MB JPEG, made here with
Pillow at quality 100 from random pixels and carrying GPS tags, goes up in 1 MiB chunks of a client stream and
comes back down a server stream with the same decoded pixels and no GPS; a stranger hears NOT_FOUND
BABY_PROFILE_NOT_FOUND from every gallery RPC; grpcli.py streams a file up (--send-file) and saves a download
(--save-file), as the getting-started walk does. (Squishes from followers and the arrival are the arrival part's.)

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import io
import json
import random
import subprocess
import sys
import uuid

import grpc
from PIL import Image

from conftest import REPO, TARGETS
from family_support import signed_up
from kindred.family.v1 import baby_gallery_pb2 as gallery
from kindred.family.v1 import baby_profiles_pb2 as profiles
from rpc_support import bearer, refusal

CHUNK = 1 << 20
GPS_IFD = 0x8825


def jpeg_of_about(target, seed=14):
    """A JPEG of random pixels at quality 100 with camera and GPS tags, sized to within 10% under `target`
    bytes: noise barely compresses, so its size follows its area."""
    rng = random.Random(seed)
    side = 1600
    for _ in range(6):
        image = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
        exif = Image.Exif()
        exif[0x010F] = "SpyCam"
        exif[GPS_IFD] = {1: "N", 2: (51.0, 30.0, 26.0), 3: "W", 4: (0.0, 7.0, 39.0)}
        out = io.BytesIO()
        image.save(out, "JPEG", quality=100, exif=exif.tobytes())
        data = out.getvalue()
        if 0.9 * target <= len(data) <= target:
            return data
        side = int(side * (0.95 * target / len(data)) ** 0.5)
    raise AssertionError(f"no JPEG near {target} bytes: the last was {len(data)}")


def upload(family, token, profile, data, caption=""):
    """UploadPhoto: the metadata, then `data` in chunks of 1 MiB."""
    def messages():
        yield gallery.UploadPhotoRequest(metadata=gallery.UploadPhotoMetadata(
            request_id=str(uuid.uuid4()), profile_id=profile, caption=caption, file_name="IMG_0001.JPG"))
        for start in range(0, len(data), CHUNK):
            yield gallery.UploadPhotoRequest(chunk=data[start:start + CHUNK])
    return family.UploadPhoto(messages(), metadata=bearer(token), timeout=60).photo


def test_an_8_mb_jpeg_goes_up_in_chunks_and_comes_back_with_the_same_pixels_and_no_gps(identity, family):
    _, _, token = signed_up(identity, 33)
    profile = family.CreateBabyProfile(
        profiles.CreateBabyProfileRequest(request_id="p", name="Ada"), metadata=bearer(token), timeout=10
    ).profile.profile_id
    original = jpeg_of_about(8 * 1024 * 1024)
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(GPS_IFD)[2] == (51.0, 30.0, 26.0)

    photo = upload(family, token, profile, original, caption="First day")
    assert (photo.media_type, photo.width, photo.height, photo.caption) == (
        "image/jpeg", *Image.open(io.BytesIO(original)).size, "First day")

    responses = list(family.DownloadPhoto(
        gallery.DownloadPhotoRequest(profile_id=profile, photo_id=photo.photo_id), metadata=bearer(token),
        timeout=60))
    assert responses[0].photo == photo and not responses[0].chunk
    assert all(0 < len(r.chunk) <= CHUNK for r in responses[1:])
    stored = b"".join(r.chunk for r in responses[1:])
    assert len(stored) == photo.byte_count

    downloaded = Image.open(io.BytesIO(stored))
    assert downloaded.tobytes() == Image.open(io.BytesIO(original)).tobytes()
    assert not downloaded.getexif().get_ifd(GPS_IFD)
    assert b"SpyCam" not in stored

    listed = family.ListPhotos(gallery.ListPhotosRequest(profile_id=profile), metadata=bearer(token), timeout=10)
    assert [p.photo_id for p in listed.photos] == [photo.photo_id]


def test_a_stranger_hears_not_found_from_every_gallery_rpc(identity, family):
    _, _, token = signed_up(identity, 40)
    meta, profile, photo = bearer(token), str(uuid.uuid4()), str(uuid.uuid4())
    every = {
        "UploadPhoto": lambda: family.UploadPhoto(iter([
            gallery.UploadPhotoRequest(metadata=gallery.UploadPhotoMetadata(request_id="r", profile_id=profile)),
            gallery.UploadPhotoRequest(chunk=b"\xff\xd8\xff")]), metadata=meta),
        "GetPhoto": lambda: family.GetPhoto(gallery.GetPhotoRequest(profile_id=profile, photo_id=photo), metadata=meta),
        "DownloadPhoto": lambda: list(family.DownloadPhoto(
            gallery.DownloadPhotoRequest(profile_id=profile, photo_id=photo), metadata=meta)),
        "ListPhotos": lambda: family.ListPhotos(gallery.ListPhotosRequest(profile_id=profile), metadata=meta),
        "UpdatePhotoCaption": lambda: family.UpdatePhotoCaption(
            gallery.UpdatePhotoCaptionRequest(profile_id=profile, photo_id=photo, caption="x"), metadata=meta),
        "DeletePhoto": lambda: family.DeletePhoto(
            gallery.DeletePhotoRequest(profile_id=profile, photo_id=photo), metadata=meta),
    }
    for name, call in every.items():
        assert refusal(call) == (grpc.StatusCode.NOT_FOUND, "BABY_PROFILE_NOT_FOUND", []), name


def test_grpcli_uploads_a_file_in_chunks_and_saves_the_download(identity, family, tmp_path):
    _, _, token = signed_up(identity, 35)
    profile = family.CreateBabyProfile(
        profiles.CreateBabyProfileRequest(request_id="p", name="Lark"), metadata=bearer(token), timeout=10
    ).profile.profile_id
    original = tmp_path / "first-photo.jpg"
    original.write_bytes(jpeg_of_about(2_600_000, seed=7))

    def grpcli(method, request, *options):
        shown = subprocess.run(
            [sys.executable, str(REPO / "deploy" / "local" / "grpcli.py"), "call", TARGETS["family"],
             f"kindred.family.v1.FamilyService/{method}", json.dumps(request), "--token", token, *options],
            capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0, shown.stderr
        return shown.stdout

    uploaded = json.loads(grpcli("UploadPhoto", {"metadata": {"request_id": "first", "profile_id": profile,
                                                              "caption": "Hello"}},
                                 "--send-file", f"chunk={original}"))["photo"]
    width, height = Image.open(original).size
    assert (uploaded["caption"], uploaded["mediaType"], uploaded["width"], uploaded["height"]) == (
        "Hello", "image/jpeg", width, height)

    saved = tmp_path / "grandma-sees.jpg"
    printed = grpcli("DownloadPhoto", {"profile_id": profile, "photo_id": uploaded["photoId"]},
                     "--save-file", f"chunk={saved}")
    assert json.loads(printed) == {"photo": uploaded}, "only the first message, which carries no bytes, is printed"
    streamed = b"".join(r.chunk for r in family.DownloadPhoto(
        gallery.DownloadPhotoRequest(profile_id=profile, photo_id=uploaded["photoId"]), metadata=bearer(token),
        timeout=60))
    assert saved.read_bytes() == streamed and len(streamed) == int(uploaded["byteCount"])
    assert Image.open(saved).tobytes() == Image.open(original).tobytes()
