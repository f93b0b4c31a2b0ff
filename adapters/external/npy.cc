#include "adapters/external/npy.h"

#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace hlocheck::external {

std::string NpyDescr(ElementType type) {
  switch (type) {
    case ElementType::kI1:
      return "|b1";
    case ElementType::kSI2:
    case ElementType::kSI4:
    case ElementType::kSI8:
      return "|i1";
    case ElementType::kSI16:
      return "<i2";
    case ElementType::kSI32:
      return "<i4";
    case ElementType::kSI64:
      return "<i8";
    case ElementType::kF16:
      return "<f2";
    case ElementType::kF32:
      return "<f4";
    case ElementType::kF64:
      return "<f8";
    case ElementType::kComplexF32:
      return "<c8";
    case ElementType::kComplexF64:
      return "<c16";
    case ElementType::kBF16:
      return "<u2";
    default:
      break;
  }
  switch (ContainerBytes(type)) {
    case 1:
      return "|u1";
    case 2:
      return "<u2";
    case 4:
      return "<u4";
    default:
      return "<u8";
  }
}

std::string EncodeNpy(const Tensor& tensor) {
  std::string shape;
  if (tensor.shape().size() == 1) {
    shape = absl::StrCat("(", tensor.shape()[0], ",)");
  } else {
    shape = "(" + absl::StrJoin(tensor.shape(), ", ") + ")";
  }
  std::string header = "{'descr': '" + NpyDescr(tensor.element_type()) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version 1.0, a little-endian u16 header length; the header is
  // padded with spaces and ends in a newline so that the data starts at a
  // multiple of 64 bytes.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  std::span<const std::byte> bytes = tensor.bytes();
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return out;
}

namespace {

// The value of `key` in the header dict's text: `'key': VALUE,`.
std::string HeaderValue(const std::string& header, const std::string& key) {
  const std::string quoted = "'" + key + "':";
  size_t at = header.find(quoted);
  if (at == std::string::npos) return "";
  at = header.find_first_not_of(' ', at + quoted.size());
  if (at == std::string::npos) return "";
  if (header[at] == '(') {
    size_t close = header.find(')', at);
    return close == std::string::npos ? "" : header.substr(at, close + 1 - at);
  }
  size_t end = header.find_first_of(",}", at);
  return end == std::string::npos ? "" : header.substr(at, end - at);
}

bool SameDescr(const std::string& actual, const std::string& wanted) {
  if (actual == wanted) return true;
  // One-byte types take any byte-order mark; '=' is little-endian here.
  if (actual.size() == wanted.size() && actual.substr(1) == wanted.substr(1)) {
    return wanted[0] == '|' || actual[0] == '=' || actual[0] == '|';
  }
  return false;
}

}  // namespace

absl::StatusOr<Tensor> DecodeNpy(std::string_view bytes, const TensorType& expected,
                                 const std::string& file) {
  auto error = [&](const std::string& what) {
    return absl::InvalidArgumentError(file + ": " + what);
  };
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") return error("not a .npy file");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_size = 0, offset = 0;
  if (major == 1) {
    header_size = static_cast<unsigned char>(bytes[8]) |
                  static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return error("truncated .npy header");
    for (int i = 0; i < 4; ++i)
      header_size |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    offset = 12;
  } else {
    return error(absl::StrCat(".npy format version ", major, " is not supported"));
  }
  if (bytes.size() < offset + header_size) return error("truncated .npy header");
  const std::string header(bytes.substr(offset, header_size));
  std::string_view data = bytes.substr(offset + header_size);

  std::string descr = HeaderValue(header, "descr");
  if (descr.size() >= 2 && descr.front() == '\'' && descr.back() == '\'') {
    descr = descr.substr(1, descr.size() - 2);
  }
  const std::string wanted = NpyDescr(expected.element_type);
  if (!SameDescr(descr, wanted)) {
    return error(
        absl::StrCat("dtype '", descr, "', expected '", wanted, "' for ", expected.ToString()));
  }
  if (HeaderValue(header, "fortran_order") != "False") return error("not in C order");
  const std::string shape_text = HeaderValue(header, "shape");
  if (shape_text.size() < 2 || shape_text.front() != '(' || shape_text.back() != ')') {
    return error("no shape in the .npy header");
  }
  Shape shape;
  for (absl::string_view part :
       absl::StrSplit(shape_text.substr(1, shape_text.size() - 2), ',', absl::SkipWhitespace())) {
    int64_t dimension;
    if (!absl::SimpleAtoi(part, &dimension) || dimension < 0) {
      return error("a bad dimension in the .npy shape " + shape_text);
    }
    shape.push_back(dimension);
  }
  if (shape != expected.shape) {
    return error(absl::StrCat("shape ", shape_text, ", expected ", expected.ToString()));
  }
  Tensor tensor(TensorType(expected.shape, expected.element_type));
  if (data.size() != tensor.bytes().size()) {
    return error(absl::StrCat(data.size(), " bytes of data, expected ", tensor.bytes().size()));
  }
  if (!data.empty()) std::memcpy(tensor.raw(), data.data(), data.size());
  return tensor;
}

}  // namespace hlocheck::external
