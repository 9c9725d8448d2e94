#include <hydra/store/recording.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/store/store.hpp>
#include <hydra/util/files.hpp>

namespace hydra::store {
namespace {

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

RowNaming with_time(RowNaming naming) {
  if (naming.recorded_at == 0) naming.recorded_at = now_seconds();
  if (naming.attempt < 1) throw UsageError("--attempt must be 1 or more, not " + std::to_string(naming.attempt));
  return naming;
}

}  // namespace

RecordOutcome record_contract(const std::filesystem::path& store_file, const nlohmann::json& contract,
                              RowNaming naming) {
  const auto rows = rows_from_contract(contract, "the score of this run", with_time(std::move(naming)));
  Store store(store_file, Store::Mode::create);
  return {rows.size(), store.record(rows)};
}

RecordOutcome import_score_files(const std::filesystem::path& store_file,
                                 const std::vector<std::filesystem::path>& score_files, RowNaming naming) {
  naming = with_time(std::move(naming));
  std::vector<CandidateRow> rows;
  for (const auto& file : score_files) {
    const std::string name = file.string();
    if (!std::filesystem::is_regular_file(file)) throw InputError(name, "no such score file");
    const nlohmann::json contract = parse::parse_json_document(util::read_file(file), name);
    auto more = rows_from_contract(contract, name, naming);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  Store store(store_file, Store::Mode::create);
  return {rows.size(), store.record(rows)};
}

std::int64_t parse_time(const std::string& text, const std::string& option) {
  const auto bad = [&]() -> std::int64_t {
    throw UsageError(option + ": \"" + text + "\" is not a time (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or seconds since 1970)");
  };
  if (text.empty()) return bad();
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 15) return bad();
    return std::stoll(text);
  }
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char tail = 0;
  int consumed = 0;
  const bool date = text.size() == 10 &&
                    std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &consumed) == 3 && consumed == 10;
  const bool date_time = !date && text.size() == 20 &&
                         std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &year, &month, &day, &hour, &minute,
                                     &second, &tail) == 7 &&
                         tail == 'Z';
  if (!date && !date_time) return bad();
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return bad();
  // Days from civil (Howard Hinnant's algorithm): no time zone, no locale.
  const int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

}  // namespace hydra::store
