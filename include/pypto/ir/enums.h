// Every enum that appears in IR text (function kinds, levels, memory spaces,
// layouts, the comm ABI enums, ...) described once: its DSL spelling
// (`pl.Mem.Vec`, `pld.NotifyOp.AtomicAdd`) and member values. The printer prints
// enum-typed kwargs by name through this table and the parser resolves dotted
// names through it, so adding a member here is all it takes to support it in text.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace pypto::ir {

enum class FunctionType : int {
  kOpaque = 0,
  kOrchestration = 1,
  kInCore = 2,
  kAIC = 3,
  kAIV = 4,
  kGroup = 5,
  kSpmd = 6,
};
enum class Level : int {
  kAIV = 0,
  kAIC = 1,
  kCoreGroup = 2,
  kChipDie = 3,
  kChip = 4,
  kHost = 5,
  kCluster0 = 6,
  kCluster1 = 7,
  kCluster2 = 8,
  kGlobal = 9,
};
enum class Role : int { kOrchestrator = 0, kSubWorker = 1 };
enum class MemorySpace : int {
  kDDR = 0,
  kVec = 1,
  kMat = 2,
  kLeft = 3,
  kRight = 4,
  kAcc = 5,
  kBias = 6,
  kScalarLocal = 7,
};
enum class TensorLayout : int { kND = 0, kDN = 1, kNZ = 2 };
enum class TileLayout : int { kNoneBox = 0, kRowMajor = 1, kColMajor = 2 };
enum class PadValue : int { kNull = 0, kZero = 1, kMax = 2, kMin = 3 };
enum class SplitMode : int { kNone = 0, kUpDown = 1, kLeftRight = 2 };
enum class ParamDirection : int { kIn = 0, kOut = 1, kInOut = 2 };
enum class ArgDirection : int {
  kInput = 0,
  kOutput = 1,
  kInOut = 2,
  kOutputExisting = 3,
  kNoDep = 4,
  kScalar = 5
};
enum class ForKind : int { kRange = 0, kParallel = 1, kUnroll = 2, kPipeline = 3 };

// Which enum a value or kwarg belongs to.
enum class EnumKind : int {
  kFunctionType,
  kLevel,
  kRole,
  kMemorySpace,
  kTensorLayout,
  kTileLayout,
  kPadValue,
  kSplitMode,
  kNotifyOp,
  kWaitCmp,
  kAtomicType,
  kReduceOp,
  kArgDirection,
  kCount
};

struct EnumDesc {
  EnumKind kind;
  std::string_view prefix;  // DSL spelling of the enum, e.g. "pld.NotifyOp"
  std::vector<std::pair<std::string_view, int>> members;  // canonical first per value
  // Extra spellings accepted by the parser (e.g. pl.Level.NODE == HOST).
  std::vector<std::pair<std::string_view, int>> aliases;
};

const EnumDesc& GetEnumDesc(EnumKind kind);
// Canonical "pld.NotifyOp.AtomicAdd"; nullopt when the value is out of range.
std::optional<std::string> EnumValueName(EnumKind kind, int value);
// Resolves a full dotted name ("pl.Mem.Vec", "pld.AtomicType.None_") to its enum.
std::optional<std::pair<EnumKind, int>> LookupEnumValue(std::string_view dotted);
bool EnumValueInRange(EnumKind kind, int value);

}  // namespace pypto::ir
