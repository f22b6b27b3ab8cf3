// AlignedBuffer views: read-only buffers over memory someone else owns (a mapped .laneql file),
// kept alive by a shared owner and copied into owned memory on the first write.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/aligned_buffer.h"

namespace laneql {
namespace {

// What a view looks at: `size` bytes 0, 1, 2, ... in an owned buffer (zero padding after them),
// held by a shared_ptr the test can watch through a weak_ptr.
struct Source {
  std::shared_ptr<AlignedBuffer> memory = std::make_shared<AlignedBuffer>();
  std::weak_ptr<AlignedBuffer> watch = memory;
  std::vector<uint8_t> expected;

  explicit Source(size_t size) {
    EXPECT_TRUE(memory->Resize(size, nullptr));
    for (size_t i = 0; i < size; ++i) memory->data()[i] = static_cast<uint8_t>(i * 7 + 1);
    expected.assign(memory->data(), memory->data() + size);
  }
  AlignedBuffer View() const {
    const AlignedBuffer& m = *memory;
    return AlignedBuffer::View(m.data(), m.size(), m.capacity(), memory);
  }
  // The source's bytes are as they were: nothing wrote through the view.
  bool Untouched() const {
    const AlignedBuffer& m = *memory;
    return m.size() == expected.size() &&
           std::memcmp(m.data(), expected.data(), expected.size()) == 0;
  }
};

bool PaddingIsZero(const AlignedBuffer& b) {
  for (size_t i = b.size(); i < b.capacity(); ++i) {
    if (b.data()[i] != 0) return false;
  }
  return true;
}

bool HoldsBytes(const AlignedBuffer& b, const std::vector<uint8_t>& bytes) {
  return b.size() == bytes.size() && std::memcmp(b.data(), bytes.data(), bytes.size()) == 0;
}

TEST(AlignedBufferView, ReadsTheSourceWithoutCopying) {
  Source source(100);
  const AlignedBuffer view = source.View();
  EXPECT_TRUE(view.is_view());
  EXPECT_EQ(static_cast<const AlignedBuffer&>(*source.memory).data(), view.data());
  EXPECT_EQ(100u, view.size());
  EXPECT_EQ(128u, view.capacity());
  EXPECT_EQ(view.data(), view.As<uint8_t>());
  EXPECT_TRUE(PaddingIsZero(view));
}

TEST(AlignedBufferView, KeepsItsOwnerAliveAndLetsGo) {
  Source source(10);
  AlignedBuffer view = source.View();
  source.memory.reset();  // only the view holds the memory now
  EXPECT_FALSE(source.watch.expired());
  EXPECT_EQ(1, static_cast<const AlignedBuffer&>(view).data()[0]);  // still readable
  view = AlignedBuffer();
  EXPECT_TRUE(source.watch.expired());
}

TEST(AlignedBufferView, EmptyViewHoldsNothing) {
  Source source(0);
  const AlignedBuffer view = AlignedBuffer::View(nullptr, 0, 0, source.memory);
  EXPECT_FALSE(view.is_view());
  EXPECT_EQ(nullptr, view.data());
  EXPECT_EQ(0u, view.capacity());
  EXPECT_EQ(1, source.memory.use_count());
}

TEST(AlignedBufferView, MovesKeepTheView) {
  static_assert(std::is_nothrow_move_constructible_v<AlignedBuffer>);
  Source source(70);
  const uint8_t* bytes = static_cast<const AlignedBuffer&>(*source.memory).data();
  AlignedBuffer a = source.View();
  AlignedBuffer b(std::move(a));
  EXPECT_FALSE(a.is_view());
  EXPECT_EQ(nullptr, static_cast<const AlignedBuffer&>(a).data());
  EXPECT_EQ(0u, a.size());
  EXPECT_TRUE(b.is_view());
  EXPECT_EQ(bytes, static_cast<const AlignedBuffer&>(b).data());
  AlignedBuffer c;
  ASSERT_TRUE(c.Resize(5, nullptr));  // owned memory, freed by the assignment
  c = std::move(b);
  EXPECT_TRUE(c.is_view());
  EXPECT_EQ(bytes, static_cast<const AlignedBuffer&>(c).data());
  EXPECT_EQ(70u, c.size());
  source.memory.reset();
  EXPECT_FALSE(source.watch.expired());  // c holds it
  c = AlignedBuffer();
  EXPECT_TRUE(source.watch.expired());
}

TEST(AlignedBufferView, NonConstAccessCopiesFirst) {
  Source source(100);
  AlignedBuffer view = source.View();
  const uint8_t* mapped = static_cast<const AlignedBuffer&>(view).data();
  uint8_t* writable = view.data();  // copy-on-write
  EXPECT_NE(mapped, writable);
  EXPECT_FALSE(view.is_view());
  EXPECT_TRUE(HoldsBytes(view, source.expected));
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(writable) % 64);
  EXPECT_TRUE(PaddingIsZero(view));
  writable[0] = 99;
  EXPECT_TRUE(source.Untouched());
  EXPECT_EQ(1, source.memory.use_count());  // the copy let go of the owner

  AlignedBuffer typed = source.View();
  int32_t* words = typed.As<int32_t>();  // As<T>() copies too
  EXPECT_NE(static_cast<const void*>(words), static_cast<const void*>(mapped));
  words[0] = -1;
  EXPECT_TRUE(source.Untouched());
}

TEST(AlignedBufferView, ResizingCopies) {
  for (size_t new_size : {size_t{0}, size_t{10}, size_t{100}, size_t{127}, size_t{128},
                          size_t{1000}}) {
    Source source(100);
    AlignedBuffer view = source.View();
    ASSERT_TRUE(view.Resize(new_size, nullptr)) << new_size;
    EXPECT_FALSE(view.is_view());
    EXPECT_EQ(new_size, view.size());
    const size_t kept = new_size < 100 ? new_size : 100;
    EXPECT_EQ(0, std::memcmp(view.data(), source.expected.data(), kept));
    for (size_t i = kept; i < new_size; ++i) ASSERT_EQ(0, view.data()[i]) << i;
    EXPECT_TRUE(PaddingIsZero(view));
    EXPECT_TRUE(source.Untouched());
  }
  Source source(100);
  AlignedBuffer overwrite = source.View();
  ASSERT_TRUE(overwrite.ResizeForOverwrite(300, nullptr));
  EXPECT_FALSE(overwrite.is_view());
  EXPECT_EQ(0, std::memcmp(overwrite.data(), source.expected.data(), 100));
  EXPECT_TRUE(PaddingIsZero(overwrite));
  AlignedBuffer small = source.View();
  ASSERT_TRUE(small.ResizeForOverwrite(50, nullptr));  // within the capacity: still copies
  EXPECT_FALSE(small.is_view());
  EXPECT_TRUE(PaddingIsZero(small));
  EXPECT_TRUE(source.Untouched());
}

TEST(AlignedBufferView, ReserveAppendMakeOwnedCopy) {
  Source source(64);
  AlignedBuffer reserved = source.View();
  ASSERT_TRUE(reserved.Reserve(10, nullptr));  // no growth needed, but it prepares a write
  EXPECT_FALSE(reserved.is_view());
  EXPECT_TRUE(HoldsBytes(reserved, source.expected));
  AlignedBuffer grown = source.View();
  ASSERT_TRUE(grown.Reserve(1000, nullptr));
  EXPECT_FALSE(grown.is_view());
  EXPECT_GE(grown.capacity(), 1000u);
  EXPECT_TRUE(HoldsBytes(grown, source.expected));
  EXPECT_TRUE(PaddingIsZero(grown));

  AlignedBuffer appended = source.View();
  const uint8_t more[3] = {5, 6, 7};
  ASSERT_TRUE(appended.Append(more, 3, nullptr));
  std::vector<uint8_t> want = source.expected;
  want.insert(want.end(), more, more + 3);
  EXPECT_TRUE(HoldsBytes(appended, want));
  EXPECT_TRUE(PaddingIsZero(appended));

  AlignedBuffer owned = source.View();
  std::string error;
  ASSERT_TRUE(owned.MakeOwned(&error)) << error;
  EXPECT_FALSE(owned.is_view());
  EXPECT_EQ(64u, owned.capacity());
  EXPECT_TRUE(HoldsBytes(owned, source.expected));
  ASSERT_TRUE(owned.MakeOwned(&error));  // already owned: nothing happens
  EXPECT_TRUE(source.Untouched());
  EXPECT_EQ(1, source.memory.use_count());  // none of the copies holds the source
}

TEST(AlignedBufferView, AssignAndClearDropTheView) {
  Source source(100);
  AlignedBuffer view = source.View();
  // Assigning the view's own bytes: they must still be readable while being copied.
  const uint8_t* own = static_cast<const AlignedBuffer&>(view).data();
  source.memory.reset();
  ASSERT_TRUE(view.Assign(own + 10, 20, nullptr));
  EXPECT_FALSE(view.is_view());
  EXPECT_TRUE(source.watch.expired());
  EXPECT_TRUE(HoldsBytes(view, std::vector<uint8_t>(source.expected.begin() + 10,
                                                    source.expected.begin() + 30)));
  EXPECT_TRUE(PaddingIsZero(view));

  Source other(100);
  AlignedBuffer cleared = other.View();
  cleared.Clear();
  EXPECT_FALSE(cleared.is_view());
  EXPECT_EQ(0u, cleared.size());
  EXPECT_EQ(1, other.memory.use_count());
  ASSERT_TRUE(cleared.Append("ab", 2, nullptr));  // usable afterwards
  EXPECT_EQ('b', cleared.data()[1]);
  EXPECT_TRUE(other.Untouched());

  AlignedBuffer emptied = other.View();
  ASSERT_TRUE(emptied.Assign(nullptr, 0, nullptr));
  EXPECT_FALSE(emptied.is_view());
  EXPECT_EQ(0u, emptied.size());
  EXPECT_TRUE(other.Untouched());
}

// AlignedBuffer::Append's inline short copy: every length up to 40 (each branch and its edges)
// copies exactly those bytes, and the bytes around the target stay as they were.
TEST(AlignedBufferAppend, ShortCopiesMoveExactlyTheirBytes) {
  uint8_t source[48];
  for (size_t i = 0; i < sizeof(source); ++i) source[i] = static_cast<uint8_t>(0x40 + i);
  for (size_t n = 0; n <= 40; ++n) {
    uint8_t target[64];
    std::memset(target, 0xEE, sizeof(target));
    AlignedBuffer::CopyShort(target + 8, source + 3, n);
    for (size_t i = 0; i < sizeof(target); ++i) {
      const uint8_t want = i >= 8 && i < 8 + n ? source[3 + i - 8] : 0xEE;
      ASSERT_EQ(target[i], want) << "n " << n << " byte " << i;
    }
  }
  // Through Append: rows of every short length, one after another.
  AlignedBuffer buffer;
  std::string error;
  ASSERT_TRUE(buffer.Reserve(1024, &error)) << error;
  std::string want;
  for (size_t n = 0; n <= 20; ++n) {
    ASSERT_TRUE(buffer.Append(source, n, &error)) << error;
    want.append(reinterpret_cast<const char*>(source), n);
  }
  ASSERT_EQ(buffer.size(), want.size());
  EXPECT_EQ(std::memcmp(buffer.data(), want.data(), want.size()), 0);
}

}  // namespace
}  // namespace laneql
