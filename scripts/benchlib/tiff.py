"""Little-endian TIFF structures written byte by byte: the EXIF of the
benchmark photos and the DNGs of the format benchmark (no piexif needed)."""
import struct

ASCII, SHORT, LONG, RATIONAL, BYTE, SRATIONAL = 2, 3, 4, 5, 1, 10


def ascii(text):
    data = text.encode() + b"\0"
    return (ASCII, len(data), data)


def short(*values):
    return (SHORT, len(values), struct.pack(f"<{len(values)}H", *values))


def long(*values):
    return (LONG, len(values), struct.pack(f"<{len(values)}I", *values))


def byte(*values):
    return (BYTE, len(values), bytes(values))


def rational(*pairs):
    return (RATIONAL, len(pairs), b"".join(struct.pack("<II", n, d) for n, d in pairs))


def srational(*pairs):
    return (SRATIONAL, len(pairs), b"".join(struct.pack("<ii", n, d) for n, d in pairs))


class TiffWriter:
    """Appends data and IFDs to one buffer; offsets are from its start (the
    TIFF header, written first)."""

    def __init__(self):
        self.out = bytearray(b"II*\x00\x00\x00\x00\x00")

    def append(self, data):
        if len(self.out) % 2:
            self.out.append(0)
        offset = len(self.out)
        self.out.extend(data)
        return offset

    def ifd(self, entries, first=False):
        """Writes `entries` ({tag: (type, count, bytes)}) as one IFD; values
        over 4 bytes before it. Returns its offset."""
        large = {tag: self.append(data) for tag, (_, _, data) in entries.items() if len(data) > 4}
        if len(self.out) % 2:
            self.out.append(0)
        offset = len(self.out)
        self.out.extend(struct.pack("<H", len(entries)))
        for tag in sorted(entries):
            kind, count, data = entries[tag]
            self.out.extend(struct.pack("<HHI", tag, kind, count))
            self.out.extend(struct.pack("<I", large[tag]) if tag in large else data.ljust(4, b"\0"))
        self.out.extend(b"\0\0\0\0")
        if first:
            self.out[4:8] = struct.pack("<I", offset)
        return offset

    def bytes(self):
        return bytes(self.out)


def exif_payload(when=None, title=None, make="Phone", model="Phone 12", orientation=None, offset=None, gps=None):
    """An APP1 Exif payload ("Exif\\0\\0" and a TIFF): Make, Model, optional
    ImageDescription and Orientation; DateTimeOriginal (and OffsetTimeOriginal)
    when `when` is given; a GPS IFD for `gps` = (latitude, longitude)."""
    tiff = TiffWriter()
    exif = {}
    if when is not None:
        exif[0x9003] = ascii(when.strftime("%Y:%m:%d %H:%M:%S"))
        if offset:
            exif[0x9011] = ascii(offset)
    # Sub-IFDs first: IFD0 points at them.
    sub = {}
    if exif:
        sub[0x8769] = long(tiff.ifd(exif))
    if gps is not None:
        def dms(value):
            value = abs(value)
            degrees, minutes = int(value), int(value * 60) % 60
            return rational((degrees, 1), (minutes, 1), (round((value * 3600) % 60 * 100), 100))
        latitude, longitude = gps
        sub[0x8825] = long(tiff.ifd({1: ascii("N" if latitude >= 0 else "S"), 2: dms(latitude),
                                     3: ascii("E" if longitude >= 0 else "W"), 4: dms(longitude)}))
    ifd0 = {0x010F: ascii(make), 0x0110: ascii(model), **sub}
    if title:
        ifd0[0x010E] = ascii(title)
    if orientation:
        ifd0[0x0112] = short(orientation)
    tiff.ifd(ifd0, first=True)
    return b"Exif\0\0" + tiff.bytes()


def exif_segment(**fields):
    """The APP1 segment (marker and length) around `exif_payload(**fields)`."""
    payload = exif_payload(**fields)
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
