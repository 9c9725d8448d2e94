#include <textstats/textstats.hpp>

#include "check.hpp"

namespace {

// `ranking` as "word:occurrences" strings, which CHECK_EQ can compare and print.
std::vector<std::string> describe_ranking(const std::vector<textstats::WordFrequency>& ranking) {
  std::vector<std::string> described;
  described.reserve(ranking.size());
  for (const textstats::WordFrequency& entry : ranking) {
    described.push_back(entry.word + ':' + std::to_string(entry.occurrences));
  }
  return described;
}

using Ranking = std::vector<std::string>;

void most_frequent_first() {
  CHECK_EQ(describe_ranking(textstats::top_words("the cat and the hat and the bat", 2)),
           Ranking{"the:3", "and:2"});
}

void ties_in_alphabetical_order() {
  CHECK_EQ(describe_ranking(textstats::top_words("pear Apple fig apple FIG pear", 3)),
           Ranking{"apple:2", "fig:2", "pear:2"});
}

void limit_larger_than_vocabulary() {
  CHECK_EQ(describe_ranking(textstats::top_words("one two two", 10)),
           Ranking{"two:2", "one:1"});
  CHECK_EQ(describe_ranking(textstats::top_words("", 3)), Ranking{});
}

}  // namespace

int main(int argc, char** argv) {
  return textstats_test::run_test_case(argc, argv, {
      {"most_frequent_first", most_frequent_first},
      {"ties_in_alphabetical_order", ties_in_alphabetical_order},
      {"limit_larger_than_vocabulary", limit_larger_than_vocabulary},
  });
}
