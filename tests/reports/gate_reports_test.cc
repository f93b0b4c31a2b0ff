// The gate's report writers: what a CI system and a reader of the console see.
#include "reports/gate_reports.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace hlocheck {
namespace {

GateRun TwoGroupRun() {
  GateRun run;
  run.backend = "cpu";
  run.seed = 7;
  run.cases_per_group = 10;
  GroupResult exp;
  exp.op = "exponential";
  exp.type = ElementType::kBF16;
  exp.check = "ulp";
  exp.cases = exp.passed = 10;
  exp.elements_compared = 500;
  exp.free_elements = 3;
  exp.worst_ulp = 1;
  exp.allowed_ulp = 1;
  run.groups.push_back(exp);
  // Every element left to the implementation: nothing was measured.
  GroupResult rem;
  rem.op = "remainder";
  rem.type = ElementType::kComplexF32;
  rem.check = "ulp";
  rem.cases = rem.passed = 10;
  rem.free_elements = 80;
  run.groups.push_back(rem);
  return run;
}

TEST(GateReportsTest, JsonCarriesCountsAndTheMeasuredWorstUlpNextToTheAllowed) {
  GateRun run = TwoGroupRun();
  nlohmann::json json = GateRunToJson(run);
  EXPECT_EQ(json["schema"], "hlocheck.gate");
  EXPECT_EQ(json["totals"]["cases"], 20);
  EXPECT_EQ(json["totals"]["free_elements"], 83);
  const nlohmann::json& exp = json["groups"][0];
  EXPECT_EQ(exp["op"], "exponential");
  EXPECT_EQ(exp["element_type"], "bf16");
  EXPECT_EQ(exp["worst_ulp"], 1);
  EXPECT_EQ(exp["allowed_ulp"], 1);
  EXPECT_TRUE(json["groups"][1]["worst_ulp"].is_null()) << json["groups"][1];
}

TEST(GateReportsTest, ConsoleTableKeepsColumnsApartAndShowsUnmeasuredGroups) {
  GateRun run = TwoGroupRun();
  run.groups[0].op = "a_name_longer_than_the_op_column_is_wide";
  std::ostringstream out;
  WriteConsoleSummary(run, out);
  std::string text = out.str();
  EXPECT_NE(text.find("a_name_longer_than_the_op_column_is_wide bf16"), std::string::npos) << text;
  EXPECT_NE(text.find("1 ULP (allowed 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("- ULP (allowed 0)"), std::string::npos) << text;
  EXPECT_NE(text.find("20 passed, 0 failed"), std::string::npos) << text;
}

TEST(GateReportsTest, JunitHasASuitePerOpAndFailuresWithTheirReproducer) {
  GateRun run = TwoGroupRun();
  run.groups[1].passed = 9;
  run.groups[1].failed = 1;
  Finding f;
  f.op = "remainder";
  f.type = ElementType::kComplexF32;
  f.kind = FindingKind::kMismatch;
  f.mismatched_elements = 1;
  f.mismatches.push_back({0, {0}, "<1>", "2", "bit-exact", -1});
  f.reproducer = "func.func @main() {}";
  run.groups[1].findings.push_back(f);
  std::string xml = GateRunToJunit(run);
  EXPECT_NE(xml.find("testsuite name=\"exponential\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("testsuite name=\"remainder\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure"), std::string::npos) << xml;
  // '<' may not stand in an attribute value: complex type names are escaped.
  EXPECT_NE(xml.find("name=\"complex&lt;f32&gt;\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("complex<"), std::string::npos) << xml;
  EXPECT_NE(xml.find("expected &lt;1&gt;"), std::string::npos) << xml;
  EXPECT_TRUE(run.failed());
}

// Every byte of the text is one XML 1.0 allows: no control character but
// tab, newline and carriage return, and well-formed UTF-8 of allowed code
// points only.
bool IsXmlText(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F) return false;
      ++i;
      continue;
    }
    int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (length == 0 || b > 0xF4 || i + length > text.size()) return false;
    uint32_t code = b & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
      unsigned char c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      code = (code << 6) | (c & 0x3F);
    }
    if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF) || code == 0xFFFE || code == 0xFFFF) {
      return false;
    }
    i += length;
  }
  return true;
}

TEST(GateReportsTest, XmlEscapeReplacesWhatXmlForbidsAndKeepsTheRest) {
  EXPECT_EQ(XmlEscape("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
  // Tab, newline and carriage return stay; other controls do not.
  EXPECT_EQ(XmlEscape("x\ty\nz\r"), "x\ty\nz\r");
  EXPECT_EQ(XmlEscape(std::string("a\0b", 3)), "a\uFFFDb");
  EXPECT_EQ(XmlEscape("\x01\x1b[K\x7f"), "\uFFFD\uFFFD[K\uFFFD");
  // Well-formed UTF-8 passes through; a stray continuation byte, a
  // truncated sequence, an overlong form, a surrogate and U+FFFE do not.
  EXPECT_EQ(XmlEscape("\u00e9\u20ac\U0001F600"), "\u00e9\u20ac\U0001F600");
  EXPECT_EQ(XmlEscape("\x80"), "\uFFFD");
  EXPECT_EQ(XmlEscape("\xE2\x82"), "\uFFFD\uFFFD");
  EXPECT_EQ(XmlEscape("\xC0\xAF"), "\uFFFD\uFFFD");
  EXPECT_EQ(XmlEscape("\xED\xA0\x80"), "\uFFFD\uFFFD\uFFFD");
  EXPECT_EQ(XmlEscape("\xEF\xBF\xBE"), "\uFFFD\uFFFD\uFFFD");
  for (int b = 0; b < 256; ++b) {
    std::string one(1, static_cast<char>(b));
    EXPECT_TRUE(IsXmlText(XmlEscape(one))) << b;
  }
}

TEST(GateReportsTest, JunitOfAFindingWithControlBytesAndBadUtf8IsValidXmlText) {
  GateRun run = TwoGroupRun();
  run.groups[1].passed = 9;
  run.groups[1].failed = 1;
  Finding f;
  f.op = "remainder";
  f.type = ElementType::kComplexF32;
  f.kind = FindingKind::kBackendError;
  static const char kMessage[] = "device said \x1b[31mno\x1b[0m \x01\xff\xfe and \0 <done>";
  f.message = std::string(kMessage, sizeof(kMessage) - 1);
  f.reproducer = "// \x07 bell\nfunc.func @main() {}";
  run.groups[1].findings.push_back(f);
  std::string xml = GateRunToJunit(run);
  EXPECT_TRUE(IsXmlText(xml)) << xml;
  EXPECT_NE(xml.find("device said"), std::string::npos) << xml;
  EXPECT_NE(xml.find("&lt;done&gt;"), std::string::npos) << xml;
  EXPECT_NE(xml.find("type=\"backend error\""), std::string::npos) << xml;
}

TEST(GateReportsTest, ReproducerFileNamesNeedNoShellQuoting) {
  Finding f;
  f.op = "remainder";
  f.type = ElementType::kComplexF32;
  EXPECT_EQ(ReproducerFileName(f), "finding-remainder-complex_f32.mlir");
  f.op = "odd op<name> $(x)";
  f.type = ElementType::kF32;
  std::string name = ReproducerFileName(f);
  EXPECT_EQ(name, "finding-odd_op_name_x-f32.mlir");
  for (ElementType type : AllElementTypes()) {
    f.op = "add";
    f.type = type;
    for (char c : ReproducerFileName(f)) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')
          << ReproducerFileName(f);
    }
  }
}

TEST(GateReportsTest, ReportFilesUseTheSafeNames) {
  GateRun run = TwoGroupRun();
  Finding f;
  f.op = "remainder";
  f.type = ElementType::kComplexF32;
  f.reproducer = "func.func @main() {}\n";
  run.groups[1].findings.push_back(f);
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "hlocheck-report-files-test";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(WriteReportFiles(run, dir.string()).ok());
  std::ifstream in(dir / "finding-remainder-complex_f32.mlir");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), f.reproducer);
  EXPECT_TRUE(std::filesystem::exists(dir / "report.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "junit.xml"));
}

TEST(GateReportsTest, MismatchesAreRenderedFromData) {
  Finding f;
  f.op = "sort";
  f.type = ElementType::kF32;
  f.kind = FindingKind::kMismatch;
  f.results = 2;
  f.mismatched_elements = 3;
  f.mismatches.push_back({1, {2, 0}, "1.0", "2.0", "<= 1 ULP (was 8388608)", 8388608});
  f.mismatches.push_back({0, {0, 1}, "5", "6", "bit-exact", -1});
  EXPECT_EQ(FindingSummary(f), "3 element(s) differ from the oracle");
  EXPECT_EQ(FindingDetails(f),
            "result1[2, 0]: expected 1.0, got 2.0; allowed <= 1 ULP (was 8388608)\n"
            "result0[0, 1]: expected 5, got 6; allowed bit-exact\n");
  GateRun run = TwoGroupRun();
  run.groups[0].failed = 1;
  run.groups[0].findings.push_back(f);
  nlohmann::json json = GateRunToJson(run);
  EXPECT_EQ(json["version"], kReportSchemaVersion);
  const nlohmann::json& finding = json["groups"][0]["findings"][0];
  EXPECT_EQ(finding["kind"], "mismatch");
  EXPECT_EQ(finding["mismatched_elements"], 3);
  EXPECT_EQ(finding["mismatches"][0]["result"], 1);
  EXPECT_EQ(finding["mismatches"][0]["index"], nlohmann::json({2, 0}));
  EXPECT_EQ(finding["mismatches"][0]["ulp"], 8388608);
  EXPECT_TRUE(finding["mismatches"][1]["ulp"].is_null());
  // One result: no result number in the text.
  f.results = 1;
  f.mismatches.resize(1);
  f.mismatches[0].result = 0;
  EXPECT_EQ(FindingDetails(f).rfind("result[2, 0]: ", 0), 0u) << FindingDetails(f);
}

TEST(GateReportsTest, EveryKindHasItsOwnNameAndSummary) {
  std::set<std::string> names, summaries;
  for (FindingKind kind :
       {FindingKind::kMismatch, FindingKind::kWrongResultType, FindingKind::kBackendError,
        FindingKind::kBackendCrash, FindingKind::kBackendHang, FindingKind::kOracleError,
        FindingKind::kGeneratorError}) {
    Finding f;
    f.kind = kind;
    f.message = "the stage's message";
    names.insert(KindName(kind));
    summaries.insert(FindingSummary(f));
    if (kind != FindingKind::kMismatch && kind != FindingKind::kWrongResultType) {
      EXPECT_EQ(FindingDetails(f), "the stage's message\n") << KindName(kind);
    }
  }
  EXPECT_EQ(names.size(), 7u);
  EXPECT_EQ(summaries.size(), 7u);
  EXPECT_EQ(std::string(KindName(FindingKind::kBackendCrash)), "backend crash");
}

TEST(GateReportsTest, ProgressLineSaysGroupsRateAndTimeLeft) {
  EXPECT_EQ(ProgressLine(0, 10, 0, 0), "[0/10 groups] starting");
  // 3 groups in 30 s: 10 s a group, 7 left.
  EXPECT_EQ(ProgressLine(3, 10, 600, 30), "[3/10 groups] 20 cases/s, ETA 1:10");
}

}  // namespace
}  // namespace hlocheck
