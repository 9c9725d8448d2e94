// Internal to the lint log parser (parse/lint_log.cpp): de-duplicating findings by identity (file, line,
// column, checks, message): a header's finding seen from several translation units.
// Inline: the parser calls these once per line or per byte block.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include <hydra/error.hpp>
#include <hydra/model/lint.hpp>

namespace hydra::parse::lint_detail {

/// Two findings are the same diagnostic printed twice (a header's finding
/// seen from two translation units) when file, line, column, checks and
/// message agree.
inline bool same_identity(const model::LintFinding& a, const model::LintFinding& b) {
  return a.line() == b.line() && a.column() == b.column() && a.file() == b.file() && a.message() == b.message() &&
         a.joined_checks() == b.joined_checks();
}

/// The findings of a log by identity (see same_identity): an open-addressing
/// table of finding indices keyed by an identity hash, kept at most half
/// full. A slot is 8 bytes (the hash's low 32 bits, which also give its
/// position, and the index), so that the table stays small for the caches.
class IdentityTable {
 public:
  IdentityTable() : slots_(1024) {}

  /// Makes room for `count` findings.
  void reserve(std::size_t count) {
    if (count >= std::numeric_limits<std::uint32_t>::max())
      throw Error("a lint log with more than 4 billion findings is not supported");
    if (count * 2 > slots_.size()) grow(count);
  }

  /// Starts loading the slot where `hash` is looked up first.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(slots_.data() + (hash & (slots_.size() - 1))); }

  /// Adds `index` under `hash` unless a finding `same_as(other_index)` is
  /// already there; returns whether it was added. Needs room (reserve).
  template <typename SameAs>
  bool add_if_new(std::uint64_t hash, std::size_t index, SameAs same_as) {
    const std::size_t mask = slots_.size() - 1;
    const auto low_hash = static_cast<std::uint32_t>(hash);
    std::size_t slot = low_hash & mask;
    for (; slots_[slot].index_plus_one != 0; slot = (slot + 1) & mask)
      if (slots_[slot].low_hash == low_hash && same_as(slots_[slot].index_plus_one - 1)) return false;
    slots_[slot] = Slot{low_hash, static_cast<std::uint32_t>(index + 1)};
    return true;
  }

  /// Whether a finding `same_as(index)` is in the table under `hash`.
  template <typename SameAs>
  bool contains(std::uint64_t hash, SameAs same_as) const {
    const std::size_t mask = slots_.size() - 1;
    const auto low_hash = static_cast<std::uint32_t>(hash);
    for (std::size_t slot = low_hash & mask; slots_[slot].index_plus_one != 0; slot = (slot + 1) & mask)
      if (slots_[slot].low_hash == low_hash && same_as(slots_[slot].index_plus_one - 1)) return true;
    return false;
  }

 private:
  struct Slot {
    std::uint32_t low_hash = 0;
    std::uint32_t index_plus_one = 0;  ///< 0: empty slot
  };

  void grow(std::size_t count) {
    std::size_t size = slots_.size();
    while (count * 2 > size) size *= 2;
    std::vector<Slot> larger(size);
    const std::size_t mask = size - 1;
    for (const Slot& used : slots_) {
      if (used.index_plus_one == 0) continue;
      std::size_t slot = used.low_hash & mask;
      while (larger[slot].index_plus_one != 0) slot = (slot + 1) & mask;
      larger[slot] = used;
    }
    slots_.swap(larger);
  }

  std::vector<Slot> slots_;
};


}  // namespace hydra::parse::lint_detail
