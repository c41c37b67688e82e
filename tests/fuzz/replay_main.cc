// Replays a saved libFuzzer corpus through LLVMFuzzerTestOneInput under the normal compiler, so
// every build (including ASan/UBSan) re-checks the inputs the fuzzer found interesting.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// Feeds one file to the fuzz entry point.
static void replay_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) { replay_file(entry.path()); ++count; }
      }
    } else if (std::filesystem::is_regular_file(arg)) {
      replay_file(arg);
      ++count;
    } else {
      std::fprintf(stderr, "replay: no such corpus %s\n", argv[i]);
      return 1;
    }
  }
  if (count == 0) { std::fprintf(stderr, "replay: corpus is empty\n"); return 1; }
  std::printf("replay: %zu inputs ran without a crash\n", count);
  return 0;
}
