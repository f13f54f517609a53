// The bytes of the engine's cache (face-engine.bin in the state folder):
// numbers and floats as this machine holds them, summed with Adler-32 as
// they pass so a damaged file is refused, and read never past what the file
// holds, so no count in it can ask for more memory than it has bytes. (The
// network's 36 KB skeleton is parsed by dlib before the sum is known: its
// weights are read into the layers it makes.)
#ifndef GALLERYGEN_ENGINE_BYTES_HPP
#define GALLERYGEN_ENGINE_BYTES_HPP

#include <dlib/image_processing.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <zlib.h>

namespace gg {

// Counts the bytes when `out` is null, else copies (and sums) them into it.
class ByteWriter {
public:
    ByteWriter(uint8_t *out, size_t capacity) : out_(out), capacity_(capacity) {}

    void put(const void *bytes, size_t count) {
        // (Adler-32 of a null pointer starts a new sum: nothing to add is skipped.)
        if (count == 0) return;
        if (out_) {
            if (count > capacity_ - written_) throw std::length_error("engine cache buffer too small");
            std::memcpy(out_ + written_, bytes, count);
            sum_ = adler32(sum_, static_cast<const Bytef *>(bytes), static_cast<uInt>(count));
        }
        written_ += count;
    }
    template <typename T> void pod(const T &value) { put(&value, sizeof value); }
    // The sum of what was put, itself not summed.
    void finish() {
        const uint64_t sum = sum_;
        if (out_) {
            if (sizeof sum > capacity_ - written_) throw std::length_error("engine cache buffer too small");
            std::memcpy(out_ + written_, &sum, sizeof sum);
        }
        written_ += sizeof sum;
    }
    size_t written() const { return written_; }

private:
    uint8_t *out_;
    size_t capacity_;
    size_t written_ = 0;
    uLong sum_ = adler32(0, nullptr, 0);
};

// Reads from memory or from a file whose size is known.
class ByteReader {
public:
    ByteReader(const uint8_t *bytes, size_t size) : bytes_(bytes), remaining_(size) {}
    ByteReader(FILE *file, size_t size) : file_(file), remaining_(size) {}

    bool take(void *into, size_t count) {
        if (!ok_ || count > remaining_) return ok_ = false;
        if (count == 0) return true;
        if (file_) {
            if (std::fread(into, 1, count, file_) != count) return ok_ = false;
        } else {
            std::memcpy(into, bytes_, count);
            bytes_ += count;
        }
        remaining_ -= count;
        sum_ = adler32(sum_, static_cast<const Bytef *>(into), static_cast<uInt>(count));
        return true;
    }
    template <typename T> bool pod(T &value) { return take(&value, sizeof value); }
    // A count of things of at least `unit` bytes each, refused when the
    // rest of the file could not hold that many.
    bool count(uint64_t &value, uint64_t unit) {
        if (!pod(value)) return false;
        if (value > remaining_ / unit) return ok_ = false;
        return true;
    }
    // Whole, undamaged and nothing after it.
    bool finish() {
        const uint64_t sum = sum_;
        uint64_t stored = 0;
        if (!ok_ || remaining_ != sizeof stored) return false;
        if (file_) {
            if (std::fread(&stored, 1, sizeof stored, file_) != sizeof stored) return false;
        } else {
            std::memcpy(&stored, bytes_, sizeof stored);
        }
        remaining_ = 0;
        return stored == sum;
    }
    bool ok() const { return ok_; }
    uint64_t remaining() const { return remaining_; }

private:
    const uint8_t *bytes_ = nullptr;
    FILE *file_ = nullptr;
    size_t remaining_;
    uLong sum_ = adler32(0, nullptr, 0);
    bool ok_ = true;
};

// The 5-point shape predictor in the cache's form (LandmarkCache.cpp):
// its floats as they are, rebuilt through dlib's public constructor, and
// made only when that rebuild is dlib's own to the last bit.
bool landmarks_as_bytes(const dlib::shape_predictor &landmarks, std::vector<uint8_t> &bytes);
bool read_landmarks(ByteReader &in, dlib::shape_predictor &landmarks);

} // namespace gg

#endif
