// java.util.Properties#load semantics. Every expectation here was checked against Java 17's
// Properties.load(new StringReader(text)); the few deliberate differences are marked.
#include "config/properties.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace status_store {
namespace {

TEST(PropertiesSeparators, EqualsColonAndWhitespaceAllSeparate) {
  const properties props = parse_properties("a=1\nb:2\nc 3\nd\t4\ne\f5\n");
  EXPECT_EQ(props, (properties{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", "5"}}));
}

TEST(PropertiesSeparators, WhitespaceAroundTheSeparatorIsSkipped) {
  const properties props = parse_properties("a = 1\nb\t:\t2\nc    3\n   d=4\n");
  EXPECT_EQ(props, (properties{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}));
}

TEST(PropertiesSeparators, OnlyOneEqualsOrColonIsConsumed) {
  EXPECT_EQ(parse_properties("k = = v").at("k"), "= v");
  EXPECT_EQ(parse_properties("k:=v").at("k"), "=v");
  EXPECT_EQ(parse_properties("k=:v").at("k"), ":v");
  EXPECT_EQ(parse_properties("k==v").at("k"), "=v");
  // Whitespace then a separator: the separator is still the one consumed.
  EXPECT_EQ(parse_properties("k  =  v").at("k"), "v");
  EXPECT_EQ(parse_properties("k v=w").at("k"), "v=w");
}

TEST(PropertiesSeparators, ValueMayContainSeparators) {
  EXPECT_EQ(parse_properties("url=http://host:8083/a=b").at("url"), "http://host:8083/a=b");
  EXPECT_EQ(parse_properties("jaas=a b c").at("jaas"), "a b c");
}

TEST(PropertiesSeparators, KeyWithoutValueHasEmptyValue) {
  EXPECT_EQ(parse_properties("lonely").at("lonely"), "");
  EXPECT_EQ(parse_properties("k=").at("k"), "");
  EXPECT_EQ(parse_properties("k =   ").at("k"), "");
  EXPECT_EQ(parse_properties("k:").at("k"), "");
}

TEST(PropertiesSeparators, EmptyKeyIsKept) {
  EXPECT_EQ(parse_properties("=v").at(""), "v");
  EXPECT_EQ(parse_properties(":v").at(""), "v");
}

TEST(PropertiesSeparators, EscapedSeparatorsBelongToTheKey) {
  const properties props = parse_properties("a\\=b=1\nc\\:d:2\ne\\ f 3\ng\\\\=4\n");
  EXPECT_EQ(props, (properties{{"a=b", "1"}, {"c:d", "2"}, {"e f", "3"}, {"g\\", "4"}}));
}

TEST(PropertiesWhitespace, TrailingWhitespaceOfAValueIsKeptAsInJava) {
  // Java keeps it; parse_worker_config trims later, as Kafka's ConfigDef does.
  EXPECT_EQ(parse_properties("k=v  \t").at("k"), "v  \t");
  EXPECT_EQ(parse_properties("k=v \r\nl=w").at("k"), "v ");
}

TEST(PropertiesWhitespace, VerticalTabIsNotWhitespace) {
  // Java's whitespace set is space, tab and form feed only.
  const properties props = parse_properties("\vk=v\v");
  EXPECT_EQ(props, (properties{{"\vk", "v\v"}}));
}

TEST(PropertiesComments, HashAndBangStartComments) {
  const properties props = parse_properties("# comment\n! comment\n   # indented comment\n\t!x=y\nk=v\n");
  EXPECT_EQ(props, (properties{{"k", "v"}}));
}

TEST(PropertiesComments, CommentCharacterLaterInALineIsContent) {
  EXPECT_EQ(parse_properties("k=v # not a comment").at("k"), "v # not a comment");
  EXPECT_EQ(parse_properties("k#=v").at("k#"), "v");
}

TEST(PropertiesComments, CommentEndingInBackslashDoesNotContinue) {
  const properties props = parse_properties("# comment \\\nk=v\n");
  EXPECT_EQ(props, (properties{{"k", "v"}}));
}

TEST(PropertiesComments, BlankLinesAreIgnored) {
  const properties props = parse_properties("\n\n   \n\t\f\nk=v\n\n");
  EXPECT_EQ(props, (properties{{"k", "v"}}));
}

TEST(PropertiesComments, EmptyTextGivesNoProperties) {
  EXPECT_TRUE(parse_properties("").empty());
  EXPECT_TRUE(parse_properties("# only a comment").empty());
}

TEST(PropertiesContinuation, OddTrailingBackslashesJoinTheNextLine) {
  EXPECT_EQ(parse_properties("k=a\\\n    b").at("k"), "ab");
  EXPECT_EQ(parse_properties("k=a\\\\\\\nb").at("k"), "a\\b");
}

TEST(PropertiesContinuation, EvenTrailingBackslashesDoNot) {
  const properties props = parse_properties("k=a\\\\\nb=c");
  EXPECT_EQ(props, (properties{{"k", "a\\"}, {"b", "c"}}));
}

TEST(PropertiesContinuation, LeadingWhitespaceOfTheContinuationIsDropped) {
  EXPECT_EQ(parse_properties("list=one, \\\n      two, \\\n\t\fthree").at("list"), "one, two, three");
}

TEST(PropertiesContinuation, ContinuationCanSplitTheKey) { EXPECT_EQ(parse_properties("ke\\\n  y=v").at("key"), "v"); }

TEST(PropertiesContinuation, HashOnAContinuationLineIsContent) {
  EXPECT_EQ(parse_properties("k=a\\\n#b").at("k"), "a#b");
}

TEST(PropertiesContinuation, ContinuationOntoABlankLineEndsTheLine) {
  const properties props = parse_properties("k=a\\\n\nl=b");
  EXPECT_EQ(props, (properties{{"k", "a"}, {"l", "b"}}));
  EXPECT_EQ(parse_properties("k=a\\\n   \nl=b").at("k"), "a");
}

TEST(PropertiesContinuation, BackslashAtTheEndOfTheTextIsDropped) {
  EXPECT_EQ(parse_properties("k=a\\").at("k"), "a");
  EXPECT_EQ(parse_properties("k=a\\\n").at("k"), "a");
}

TEST(PropertiesContinuation, StillEmptyLineAfterContinuationRecognizesComments) {
  // Java 9+: a logical line with no content yet is not begun, so "#..." is a comment.
  const properties props = parse_properties("\\\n# comment\nk=v");
  EXPECT_EQ(props, (properties{{"k", "v"}}));
}

TEST(PropertiesContinuation, LoneBackslashLineAtTheEndGivesAnEmptyEntryAsInJava) {
  EXPECT_EQ(parse_properties("k=v\n\\"), (properties{{"k", "v"}, {"", ""}}));
  EXPECT_EQ(parse_properties("k=v\n\\\n"), (properties{{"k", "v"}, {"", ""}}));
  EXPECT_EQ(parse_properties("k=v\n\\\r\n"), (properties{{"k", "v"}}));
}

TEST(PropertiesLineEnds, LfCrAndCrLfAllEndLines) {
  const properties props = parse_properties("a=1\nb=2\rc=3\r\nd=4");
  EXPECT_EQ(props, (properties{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}));
}

TEST(PropertiesLineEnds, CrLfContinuation) {
  EXPECT_EQ(parse_properties("k=a\\\r\n  b\r\nl=c"), (properties{{"k", "ab"}, {"l", "c"}}));
  EXPECT_EQ(parse_properties("k=a\\\r  b").at("k"), "ab");
}

TEST(PropertiesEscapes, ControlEscapes) { EXPECT_EQ(parse_properties("k=a\\tb\\nc\\rd\\fe").at("k"), "a\tb\nc\rd\fe"); }

TEST(PropertiesEscapes, OtherEscapesMeanTheCharacterItself) {
  EXPECT_EQ(parse_properties("k=\\a\\b\\=\\:\\ \\#\\!\\\\").at("k"), "ab=: #!\\");
}

TEST(PropertiesEscapes, EscapedLeadingSpaceIsKept) { EXPECT_EQ(parse_properties("k=\\  v").at("k"), "  v"); }

TEST(PropertiesEscapes, EscapesInKeys) {
  EXPECT_EQ(parse_properties("a\\tb=v").count("a\tb"), 1U);
  EXPECT_EQ(parse_properties("\\#k=v").at("#k"), "v");
}

TEST(PropertiesEscapes, UnicodeEscapesBecomeUtf8) {
  EXPECT_EQ(parse_properties("k=\\u0041").at("k"), "A");
  EXPECT_EQ(parse_properties("k=\\u00e9").at("k"), "\xc3\xa9");
  EXPECT_EQ(parse_properties("k=\\u20AC").at("k"), "\xe2\x82\xac");
  EXPECT_EQ(parse_properties("\\u006b=v").at("k"), "v");
}

TEST(PropertiesEscapes, SurrogatePairsCombine) {
  EXPECT_EQ(parse_properties("k=\\uD83D\\uDE00").at("k"), "\xf0\x9f\x98\x80");
}

TEST(PropertiesEscapes, LoneSurrogateBecomesQuestionMark) {
  EXPECT_EQ(parse_properties("k=\\uD83Dx").at("k"), "?x");
  EXPECT_EQ(parse_properties("k=\\uDE00").at("k"), "?");
  EXPECT_EQ(parse_properties("k=\\uD83D\\u0041").at("k"), "?A");
}

TEST(PropertiesEscapes, MalformedUnicodeEscapeIsReadLiterallyWhereJavaThrows) {
  // Deliberate difference: Java throws "Malformed \uxxxx encoding.".
  EXPECT_EQ(parse_properties("k=\\u12").at("k"), "u12");
  EXPECT_EQ(parse_properties("k=\\uXYZW").at("k"), "uXYZW");
}

TEST(PropertiesEscapes, EscapedUnicodeSeparatorDoesNotSplit) {
  // A \u003d is '=' only after the split, so it is part of the key.
  EXPECT_EQ(parse_properties("a\\u003db=v").at("a=b"), "v");
}

TEST(PropertiesEscapes, RawUtf8PassesThrough) { EXPECT_EQ(parse_properties("k=caf\xc3\xa9").at("k"), "caf\xc3\xa9"); }

TEST(PropertiesDuplicates, LastDuplicateWins) { EXPECT_EQ(parse_properties("k=1\nk=2\nk 3").at("k"), "3"); }

TEST(PropertiesFile, LoadsAFile) {
  const auto path = std::filesystem::temp_directory_path() / "status_store_properties_test.properties";
  {
    std::ofstream out{path, std::ios::binary};
    out << "# sample\nbootstrap.servers = mock\nstatus.storage.topic=connect-status\n";
  }
  const properties props = load_properties_file(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(props, (properties{{"bootstrap.servers", "mock"}, {"status.storage.topic", "connect-status"}}));
}

TEST(PropertiesFile, MissingFileThrowsConfigErrorNamingTheFlag) {
  const std::string path = "/nonexistent/status-store/worker.properties";
  try {
    load_properties_file(path);
    FAIL() << "expected config_error";
  } catch (const config_error& error) {
    EXPECT_EQ(error.property(), "--config");
    EXPECT_EQ(error.value(), path);
    EXPECT_EQ(error.rule(), "cannot read file: No such file or directory");
    EXPECT_STREQ(
        error.what(),
        ("Invalid value " + path + " for configuration --config: cannot read file: No such file or directory").c_str());
  }
}

TEST(PropertiesFile, DirectoryThrowsConfigError) {
  try {
    load_properties_file(std::filesystem::temp_directory_path().string());
    FAIL() << "expected config_error";
  } catch (const config_error& error) {
    EXPECT_EQ(error.rule(), "cannot read file: Is a directory");
  }
}

TEST(PropertiesFile, SampleWorkerPropertiesParses) {
  const properties props = load_properties_file(STATUS_STORE_SOURCE_DIR "/config/worker.properties");
  EXPECT_EQ(props.at("bootstrap.servers"), "mock");
  EXPECT_EQ(props.at("status.storage.topic"), "connect-status");
}

}  // namespace
}  // namespace status_store
