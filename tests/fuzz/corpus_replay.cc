// Corpus replay driver: a plain main() (g++ or clang, no libFuzzer) that feeds
// every regular file under the given directories, in sorted order, to the
// LLVMFuzzerTestOneInput of the fuzz target it is linked with. Built with
// ASan+UBSan, it replays the checked-in corpora in ctest (parser_corpus_asan,
// pipeline_corpus_asan): a crash or sanitizer report aborts the process, and a
// hang is caught by SIGALRM per input. Prints how many files ran.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

char g_current[1024] = "";

void OnAlarm(int) {
  const char msg[] = "corpus_replay: TIMEOUT (hang) on input: ";
  (void)!write(2, msg, sizeof msg - 1);
  (void)!write(2, g_current, strnlen(g_current, sizeof g_current));
  (void)!write(2, "\n", 1);
  _exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 2) {
    std::cerr << "usage: corpus_replay DIR_OR_FILE...\n";
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    fs::path p = argv[i];
    if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      std::cerr << "corpus_replay: no such file or directory: " << p.string() << "\n";
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "corpus_replay: the corpus is empty\n";
    return 1;
  }
  signal(SIGALRM, OnAlarm);
  for (const fs::path& f : files) {
    std::snprintf(g_current, sizeof g_current, "%s", f.string().c_str());
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    alarm(30);
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    alarm(0);
  }
  std::cout << "corpus_replay: " << files.size() << " inputs, no failure\n";
  return 0;
}
