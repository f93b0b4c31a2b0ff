#include <string>
#include <vector>

#include "runners/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return hlocheck::Main(args);
}
