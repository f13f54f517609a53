"""Photo libraries made in-repo for the benchmarks (a clone has no ../shared).

- `tiny_jpeg`: a 16x16 baseline JPEG whose EXIF and first quantisation values
  are set per file, so every file is its own item with its own capture time;
  a million take seconds to write. Nothing but Python.
- `make_photo_library`: phone-sized photos (default 4032x3024) that cost
  what a camera's cost to decode: broad colour areas, shade, shapes with edges,
  texture and sensor grain, every one different; EXIF dates in bursts over
  two years with time-zone offsets, Orientation, GPS on some, a few PNGs,
  animated GIF and WebP, one truncated file per 500. Needs Pillow.
- `convert_photos`: the same pictures as HEIC, AVIF, TIFF or DNG.
- `make_clips`: phone-like video clips (ffmpeg's test sources).
"""
import base64
import datetime as dt
import os
import random
import subprocess
import struct
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from . import tiff

# A 16x16 baseline JPEG (made once with ffmpeg's testsrc2; its JFIF and
# comment segments removed): SOI, then one quantisation table.
TINY_JPEG = base64.b64decode(
    "/9j/2wBDAAgQEBMQExYWFhYWFhoYGhsbGxoaGhobGxsdHR0iIiIdHR0bGx0dICAiIiUmJSMjIiMm"
    "JigoKDAwLi44ODpFRVP/xABsAAEBAQAAAAAAAAAAAAAAAAAFAwcBAQEAAAAAAAAAAAAAAAAAAAAG"
    "EAABAwMDBAMBAQAAAAAAAAABERICIQMEURQAIjFBMlIzI2ETEQACAQMFAQEBAAAAAAAAAAABAhIR"
    "IQMxIkEABGFxBf/AABEIABAAEAMBIgACEQADEQD/2gAMAwEAAhEDEQA/AMuJvzuyhb8Bx9QAAFJM"
    "pUA/pPLYm8x7yQ6ZNE1/MxYh63FYNr3VFp34zjEGWVbR0pf4kQVDMQrIA6ppXTiNucBi7ZiXPs27"
    "i4QN17HfJnj3SqcZf63odnpIKzLtkTFWFZG67V00A+jtBn86yyqWLRGVf2tVKUo12Xi9uD3/2Q==")


def tiny_jpeg(number, when, title=None, gps=None):
    """A distinct tiny JPEG: `number` decides its pixels (three quantisation
    values: 250**3 distinct photos), `when` (a datetime) its EXIF capture
    time, `gps` (latitude, longitude) where it was taken."""
    body = bytearray(TINY_JPEG[2:])
    # DQT: marker (2), length (2), table id (1), then the values.
    assert body[0:2] == b"\xff\xdb"
    body[5] = 1 + number % 250
    body[6] = 1 + number // 250 % 250
    body[7] = 1 + number // 62500 % 250
    return b"\xff\xd8" + tiff.exif_segment(when=when, title=title, gps=gps) + bytes(body)


ALBUMS = [
    "2024/Iceland Ring Road",
    "2024/Iceland Ring Road/Day hikes",
    "2024/Summer at the lake",
    "2025/Kyoto & Osaka",
    "2025/Kyoto & Osaka/Food",
    "2025/Garden",
    "Family/Birthdays",
    "Family/Birthdays/Léa 7",
    "Family/Holidays 2024",
    "Scans",  # no EXIF dates: falls back to file times
]
CAMERAS = [("Apple", "iPhone 15 Pro"), ("FUJIFILM", "X-T5"), ("SONY", "ILCE-7M4"), ("Google", "Pixel 8"), ("Canon", "EOS R6")]


def plan_photos(count, seed):
    """One description per photo, decided up front so runs are reproducible."""
    rng = random.Random(seed)
    jobs, when = [], dt.datetime(2024, 1, 5, 8, 0, 0)
    for i in range(count):
        if rng.random() < 0.15:  # a new outing: 1-9 days later
            when += dt.timedelta(days=rng.randint(1, 9), hours=rng.randint(-3, 3))
        when += dt.timedelta(seconds=rng.randint(5, 900))
        jobs.append({
            "i": i, "seed": rng.randrange(1 << 30), "album": ALBUMS[min(len(ALBUMS) - 1, i * len(ALBUMS) // count)],
            "when": when, "offset": rng.choice(["+00:00", "+02:00", "+09:00", "-05:00"]),
            "orientation": rng.choices([1, 6, 8, 3], [85, 8, 5, 2])[0],
            "gps": (64.0 + rng.random(), -21.0 - rng.random()) if rng.random() < 0.4 else None,
            "png": rng.random() < 0.02, "corrupt": i % 500 == 499, "camera": rng.choice(CAMERAS),
        })
    return jobs


def synthetic_photo(seed, width, height):
    """Pixels that cost what a photo's cost: broad colour areas (noise at 8x6,
    bicubic up) with light and shade (noise at 1/40 size), shapes with hard
    edges, texture (noise at 1/6 size) and sensor grain at full size, all
    from `seed`."""
    from PIL import Image, ImageChops, ImageDraw
    rng = random.Random(seed)

    def noise(mode, size, resample):
        bands = len(mode)
        size = (max(2, size[0]), max(2, size[1]))
        return Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * bands)).resize((width, height), resample)

    image = noise("RGB", (8, 6), Image.BICUBIC)
    shade = noise("L", (width // 40, height // 40), Image.BICUBIC).point(lambda v: v // 4)
    image = ImageChops.add(image, Image.merge("RGB", [shade] * 3), offset=-32)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(6, 14)):
        x, y = rng.randrange(width), rng.randrange(height)
        w, h = rng.randint(width // 20, width // 3), rng.randint(height // 20, height // 3)
        colour = tuple(rng.randrange(40, 220) for _ in range(3))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)((x, y, x + w, y + h), fill=colour)
    texture = noise("L", (width // 6, height // 6), Image.BILINEAR).point(lambda v: v // 5)
    image = ImageChops.add(image, Image.merge("RGB", [texture] * 3), offset=-25)
    grain = Image.frombytes("L", (width, height), rng.randbytes(width * height)).point(lambda v: v // 16)
    return ImageChops.add(image, Image.merge("RGB", [grain] * 3), offset=-8)


def _make_photo(args):
    job, folder, width, height = args
    from PIL import Image
    image = synthetic_photo(job["seed"], width, height)
    # Pixels are stored as the camera saw them; Orientation says how to show them.
    undo = {6: Image.ROTATE_90, 8: Image.ROTATE_270, 3: Image.ROTATE_180}.get(job["orientation"])
    if undo is not None:
        image = image.transpose(undo)
    album = os.path.join(folder, job["album"])
    os.makedirs(album, exist_ok=True)
    name = f"IMG_{1000 + job['i']:05d}"
    if job["png"]:
        path = os.path.join(album, name + ".png")
        image.resize((width // 4, height // 4)).save(path)
    else:
        path = os.path.join(album, name + ".jpg")
        scan = job["album"] == "Scans"
        make, model = job["camera"]
        exif = tiff.exif_payload(when=None if scan else job["when"], offset=job["offset"], make=make, model=model,
                                 orientation=job["orientation"], gps=job["gps"])
        image.save(path, "JPEG", quality=88, exif=exif)
        if job["corrupt"]:  # a transfer that broke half-way
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
    stamp = job["when"].timestamp()
    os.utime(path, (stamp, stamp))
    return path


def _make_animations(folder, seed):
    """Two animated GIFs and an animated WebP of moving shapes."""
    from PIL import Image, ImageDraw
    rng = random.Random(seed)
    os.makedirs(folder, exist_ok=True)
    for name, size, count in (("bounce.gif", (320, 240), 12), ("spinner.gif", (200, 200), 8), ("waves.webp", (480, 270), 10)):
        frames = []
        background = tuple(rng.randrange(256) for _ in range(3))
        for f in range(count):
            frame = Image.new("RGB", size, background)
            draw = ImageDraw.Draw(frame)
            x = f * (size[0] - 60) // count
            draw.ellipse((x, size[1] // 3, x + 60, size[1] // 3 + 60), fill=(250, 200 - f * 10, 40))
            frames.append(frame)
        frames[0].save(os.path.join(folder, name), save_all=True, append_images=frames[1:], duration=80, loop=0)


def make_photo_library(folder, count, seed=1, width=4032, height=3024, jobs=None):
    """Writes `count` photos (and three animations) under `folder`."""
    os.makedirs(folder, exist_ok=True)
    plans = plan_photos(count, seed)
    with ProcessPoolExecutor(jobs or os.cpu_count()) as pool:
        paths = list(pool.map(_make_photo, [(job, folder, width, height) for job in plans], chunksize=2))
    _make_animations(os.path.join(folder, ALBUMS[5], "animated"), seed)
    return paths


def convert_photos(fmt, sources, folder):
    """The pictures of `sources` (JPEGs) as `fmt` in `folder`: heic, avif
    (heif-enc), tiff (Pillow, LZW), dng (a camera-style DNG carrying the JPEG
    as its full-size preview) or dng-bayer (a bare Bayer DNG libraw must
    demosaic). Files already there are kept. Returns their paths."""
    from PIL import Image, ImageOps
    os.makedirs(folder, exist_ok=True)

    def one(src):
        stem = os.path.splitext(os.path.basename(src))[0]
        if fmt in ("heic", "avif"):
            target = os.path.join(folder, stem + "." + fmt)
            if not os.path.exists(target):
                extra = ["-A", "-p", "speed=8"] if fmt == "avif" else []
                subprocess.run(["heif-enc", "-q", "55", *extra, "-o", target, src], check=True, capture_output=True)
        elif fmt == "tiff":
            target = os.path.join(folder, stem + ".tif")
            if not os.path.exists(target):
                with Image.open(src) as im:
                    ImageOps.exif_transpose(im).convert("RGB").save(target, compression="tiff_lzw")
        else:
            target = os.path.join(folder, stem + ".dng")
            if not os.path.exists(target):
                with Image.open(src) as im:
                    upright = ImageOps.exif_transpose(im).convert("RGB")
                    preview = open(src, "rb").read() if fmt == "dng" else None
                    if preview is not None and upright.size != im.size:
                        return None  # keep the preview's shape equal to the sensor's
                    write_dng(target, upright, preview, "Fixture", "Bayer One")
        return target

    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        return [t for t in pool.map(one, sources) if t]


def write_dng(path, rgb, preview_jpeg, make, model):
    """A DNG: Bayer RGGB 16-bit uncompressed from `rgb` (Pillow image), with
    `preview_jpeg` (bytes) as a full-size preview in a SubIFD when given."""
    w, h = rgb.size
    px = rgb.tobytes()
    cfa = bytearray(w * h * 2)
    # RGGB: row parity picks R/G or G/B; 8-bit values scaled to 16 bits.
    for y in range(h):
        row = px[y * w * 3:(y + 1) * w * 3]
        values = bytearray(w)
        if y % 2 == 0:
            values[0::2], values[1::2] = row[0::6][:(w + 1) // 2], row[4::6][:w // 2]
        else:
            values[0::2], values[1::2] = row[1::6][:(w + 1) // 2], row[5::6][:w // 2]
        cfa[y * w * 2:(y + 1) * w * 2] = struct.pack(f"<{w}H", *[v * 200 for v in values])
    out = tiff.TiffWriter()
    strip = out.append(bytes(cfa))
    tags = {254: tiff.long(0), 256: tiff.long(w), 257: tiff.long(h), 258: tiff.short(16), 259: tiff.short(1),
            262: tiff.short(32803), 271: tiff.ascii(make), 272: tiff.ascii(model), 273: tiff.long(strip), 274: tiff.short(1),
            277: tiff.short(1), 278: tiff.long(h), 279: tiff.long(len(cfa)), 284: tiff.short(1), 33421: tiff.short(2, 2),
            33422: tiff.byte(0, 1, 1, 2), 50706: tiff.byte(1, 4, 0, 0), 50708: tiff.ascii(f"{make} {model}"),
            50717: tiff.long(65535),
            50721: tiff.srational(*[(n, 10000) for n in (3240, -1580, -500, -970, 18760, 420, 550, -2040, 10570)]),
            50778: tiff.short(21)}
    if preview_jpeg:
        at = out.append(preview_jpeg)
        tags[330] = tiff.long(out.ifd({254: tiff.long(1), 256: tiff.long(w), 257: tiff.long(h), 258: tiff.short(8, 8, 8),
                                        259: tiff.short(7), 262: tiff.short(6), 273: tiff.long(at), 277: tiff.short(3),
                                        278: tiff.long(h), 279: tiff.long(len(preview_jpeg))}))
    out.ifd(tags, first=True)
    with open(path, "wb") as f:
        f.write(out.bytes())


def jpegs_in(library, count=None, complete=False):
    """The JPEGs under `library` in a stable order (the first `count`); with
    `complete`, only whole ones (a library's truncated files left out)."""
    found = []
    for d, dirs, files in os.walk(library):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for name in sorted(files):
            path = os.path.join(d, name)
            if not name.lower().endswith((".jpg", ".jpeg")) or name.startswith("."):
                continue
            if complete:
                with open(path, "rb") as f:
                    f.seek(-2, os.SEEK_END)
                    if f.read() != b"\xff\xd9":
                        continue
            found.append(path)
            if count is not None and len(found) == count:
                return found
    return found


def _ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


def make_clips(folder, kind, count, seconds):
    """`count` phone-like clips of `seconds` in `folder` (kept and reused):
    remux (1080p30 H.264 + AAC, published as it is), transcode (1080p30 HEVC
    10-bit, turned 90°: made again) or hdr (2160p30 HLG HEVC: tone-mapped).
    Needs ffmpeg (libx264, libx265) and exiftool."""
    os.makedirs(folder, exist_ok=True)
    made = []
    for i in range(count):
        source = f"testsrc2=s={'3840x2160' if kind == 'hdr' else '1920x1080'}:r=30:d={seconds},noise=alls=10:allf=t"
        audio = ["-f", "lavfi", "-i", f"sine=f={300 + 40 * i}:d={seconds}"]
        name = os.path.join(folder, f"{kind}-{i:02d}.{'mp4' if kind == 'remux' else 'mov'}")
        made.append(name)
        if os.path.exists(name):
            continue
        if kind == "remux":
            _ffmpeg("-f", "lavfi", "-i", source, *audio, "-c:v", "libx264", "-profile:v", "high", "-preset", "veryfast", "-crf", "20",
                   "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", name)
        else:
            color = ["-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"] if kind == "hdr" else []
            _ffmpeg("-f", "lavfi", "-i", source, *audio, "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                   "-x265-params", "log-level=error", "-tag:v", "hvc1", *color, "-c:a", "aac", "-shortest", name)
            if kind == "transcode":
                subprocess.run(["exiftool", "-q", "-overwrite_original", "-Rotation=90", name], check=True)
    return made
