#include "adapters/pjrt/pjrt_client.h"

#include <dlfcn.h>

#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/pjrt/compile_options.h"
#include "core/status_macros.h"
#include "pjrt_c_api.h"

namespace hlocheck::pjrt {
namespace {

// The PJRT error as a status (and the error freed), or OK for none.
absl::Status ToStatus(const PJRT_Api* api, PJRT_Error* error, std::string_view what) {
  if (error == nullptr) return absl::OkStatus();
  PJRT_Error_Message_Args message{};
  message.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
  message.error = error;
  api->PJRT_Error_Message(&message);
  std::string text =
      absl::StrCat(std::string(what), ": ", std::string(message.message, message.message_size));
  PJRT_Error_GetCode_Args code{};
  code.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE;
  code.error = error;
  PJRT_Error_Code error_code = PJRT_Error_Code_UNKNOWN;
  if (api->PJRT_Error_GetCode(&code) == nullptr) error_code = code.code;
  PJRT_Error_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  // PJRT's codes are absl's, number for number.
  return absl::Status(static_cast<absl::StatusCode>(error_code), text);
}

#define HLOCHECK_PJRT(api, call, what) HLOCHECK_RETURN_IF_ERROR(ToStatus(api, call, what))

std::optional<PJRT_Buffer_Type> BufferType(ElementType type) {
  switch (type) {
    case ElementType::kI1:
      return PJRT_Buffer_Type_PRED;
    case ElementType::kSI2:
      return PJRT_Buffer_Type_S2;
    case ElementType::kSI4:
      return PJRT_Buffer_Type_S4;
    case ElementType::kSI8:
      return PJRT_Buffer_Type_S8;
    case ElementType::kSI16:
      return PJRT_Buffer_Type_S16;
    case ElementType::kSI32:
      return PJRT_Buffer_Type_S32;
    case ElementType::kSI64:
      return PJRT_Buffer_Type_S64;
    case ElementType::kUI2:
      return PJRT_Buffer_Type_U2;
    case ElementType::kUI4:
      return PJRT_Buffer_Type_U4;
    case ElementType::kUI8:
      return PJRT_Buffer_Type_U8;
    case ElementType::kUI16:
      return PJRT_Buffer_Type_U16;
    case ElementType::kUI32:
      return PJRT_Buffer_Type_U32;
    case ElementType::kUI64:
      return PJRT_Buffer_Type_U64;
    case ElementType::kF4E2M1FN:
      return PJRT_Buffer_Type_F4E2M1FN;
    case ElementType::kF8E3M4:
      return PJRT_Buffer_Type_F8E3M4;
    case ElementType::kF8E4M3:
      return PJRT_Buffer_Type_F8E4M3;
    case ElementType::kF8E4M3FN:
      return PJRT_Buffer_Type_F8E4M3FN;
    case ElementType::kF8E4M3FNUZ:
      return PJRT_Buffer_Type_F8E4M3FNUZ;
    case ElementType::kF8E4M3B11FNUZ:
      return PJRT_Buffer_Type_F8E4M3B11FNUZ;
    case ElementType::kF8E5M2:
      return PJRT_Buffer_Type_F8E5M2;
    case ElementType::kF8E5M2FNUZ:
      return PJRT_Buffer_Type_F8E5M2FNUZ;
    case ElementType::kF8E8M0FNU:
      return PJRT_Buffer_Type_F8E8M0FNU;
    case ElementType::kBF16:
      return PJRT_Buffer_Type_BF16;
    case ElementType::kF16:
      return PJRT_Buffer_Type_F16;
    case ElementType::kF32:
      return PJRT_Buffer_Type_F32;
    case ElementType::kF64:
      return PJRT_Buffer_Type_F64;
    case ElementType::kComplexF32:
      return PJRT_Buffer_Type_C64;
    case ElementType::kComplexF64:
      return PJRT_Buffer_Type_C128;
    case ElementType::kF6E2M3FN:
    case ElementType::kF6E3M2FN:
      return std::nullopt;  // PJRT has no f6 buffer type
  }
  return std::nullopt;
}

std::string NamedValueText(const PJRT_NamedValue& value) {
  switch (value.type) {
    case PJRT_NamedValue_kString:
      return std::string(value.string_value, value.value_size);
    case PJRT_NamedValue_kInt64:
      return std::to_string(value.int64_value);
    case PJRT_NamedValue_kInt64List:
      return absl::StrJoin(std::span(value.int64_array_value, value.value_size), ".");
    case PJRT_NamedValue_kFloat:
      return std::to_string(value.float_value);
    case PJRT_NamedValue_kBool:
      return value.bool_value ? "true" : "false";
  }
  return "?";
}

// Waits for and frees a PJRT event; its error, if any.
absl::Status AwaitEvent(const PJRT_Api* api, PJRT_Event* event, std::string_view what) {
  if (event == nullptr) return absl::OkStatus();
  PJRT_Event_Await_Args await{};
  await.struct_size = PJRT_Event_Await_Args_STRUCT_SIZE;
  await.event = event;
  absl::Status status = ToStatus(api, api->PJRT_Event_Await(&await), what);
  PJRT_Event_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE;
  destroy.event = event;
  status.Update(ToStatus(api, api->PJRT_Event_Destroy(&destroy), "destroying an event"));
  return status;
}

// PJRT hands sub-byte elements (s2, s4, u2, u4, f4) to the host one per
// byte in the byte's low bits, the bits above them zero: -1 as an s4 comes
// back as 0x0f. hlocheck's container holds signed integers sign-extended
// (core/element_type.h), so they are extended here; the others are masked.
void NormalizeSubByteElements(Tensor& tensor) {
  const int bits = BitWidth(tensor.element_type());
  if (bits >= 8) return;
  const unsigned mask = (1u << bits) - 1;
  const bool sign_extend = IsSignedInt(tensor.element_type());
  for (std::byte& element : tensor.bytes()) {
    unsigned value = static_cast<unsigned>(element) & mask;
    if (sign_extend && (value >> (bits - 1)) != 0) value |= ~mask;
    element = static_cast<std::byte>(value & 0xff);
  }
}

// Device buffers freed on every path out of Execute.
class Buffers {
 public:
  explicit Buffers(const PJRT_Api* api) : api_(api) {}
  ~Buffers() {
    for (PJRT_Buffer* buffer : buffers_) {
      if (buffer == nullptr) continue;
      PJRT_Buffer_Destroy_Args destroy{};
      destroy.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE;
      destroy.buffer = buffer;
      if (PJRT_Error* error = api_->PJRT_Buffer_Destroy(&destroy))
        (void)ToStatus(api_, error, "destroying a buffer");
    }
  }
  std::vector<PJRT_Buffer*>& list() { return buffers_; }

 private:
  const PJRT_Api* api_;
  std::vector<PJRT_Buffer*> buffers_;
};

}  // namespace

std::string PluginInfo::Attribute(std::string_view name) const {
  for (const auto& [key, value] : attributes)
    if (key == name) return value;
  return "";
}

std::string PluginInfo::Describe() const {
  std::string text =
      absl::StrCat(path, ": PJRT API ", api_major, ".", api_minor, ", platform ", platform_name);
  if (!platform_version.empty()) absl::StrAppend(&text, " (", platform_version, ")");
  for (const auto& [key, value] : attributes) absl::StrAppend(&text, ", ", key, " ", value);
  return text;
}

std::pair<int, int> BuiltApiVersion() { return {PJRT_API_MAJOR, PJRT_API_MINOR}; }

bool ApiVersionCompatible(std::pair<int, int> plugin, std::pair<int, int> built) {
  return plugin.first == built.first;
}

bool HasPjrtType(ElementType type) { return BufferType(type).has_value(); }

absl::StatusOr<std::unique_ptr<Client>> Client::Load(
    const std::string& plugin_path,
    const std::vector<std::pair<std::string, std::string>>& create_options) {
  // RTLD_LOCAL: the plugin's own copies of LLVM, protobuf and Abseil stay
  // out of hlocheck's symbol namespace.
  void* library = dlopen(plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("cannot load the PJRT plugin ", plugin_path, ": ", dlerror()));
  }
  using GetPjrtApiFunction = const PJRT_Api* (*)();
  auto get_api = reinterpret_cast<GetPjrtApiFunction>(dlsym(library, "GetPjrtApi"));
  if (get_api == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(plugin_path, " is not a PJRT plugin: it has no GetPjrtApi symbol"));
  }
  const PJRT_Api* api = get_api();
  if (api == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(plugin_path, ": GetPjrtApi returned null"));
  }
  std::unique_ptr<Client> client(new Client());
  client->api_ = api;
  PluginInfo& info = client->info_;
  info.path = plugin_path;
  info.api_major = api->pjrt_api_version.major_version;
  info.api_minor = api->pjrt_api_version.minor_version;
  if (!ApiVersionCompatible({info.api_major, info.api_minor}, BuiltApiVersion())) {
    return absl::FailedPreconditionError(absl::StrCat(
        plugin_path, " speaks PJRT C API ", info.api_major, ".", info.api_minor,
        "; hlocheck was built against ", PJRT_API_MAJOR, ".", PJRT_API_MINOR,
        " and needs the same major version (rebuild hlocheck against the plugin's pjrt_c_api.h)"));
  }
  // Every function hlocheck calls lies within the plugin's PJRT_Api struct.
  if (api->struct_size < offsetof(PJRT_Api, PJRT_LoadedExecutable_Execute) + sizeof(void*)) {
    return absl::FailedPreconditionError(
        absl::StrCat(plugin_path, ": its PJRT_Api struct is too short (", api->struct_size,
                     " bytes) for the functions hlocheck calls"));
  }
  PJRT_Plugin_Initialize_Args initialize{};
  initialize.struct_size = PJRT_Plugin_Initialize_Args_STRUCT_SIZE;
  HLOCHECK_PJRT(api, api->PJRT_Plugin_Initialize(&initialize), "initialising the plugin");
  PJRT_Plugin_Attributes_Args attributes{};
  attributes.struct_size = PJRT_Plugin_Attributes_Args_STRUCT_SIZE;
  HLOCHECK_PJRT(api, api->PJRT_Plugin_Attributes(&attributes), "reading the plugin's attributes");
  for (size_t i = 0; i < attributes.num_attributes; ++i) {
    const PJRT_NamedValue& value = attributes.attributes[i];
    info.attributes.emplace_back(std::string(value.name, value.name_size), NamedValueText(value));
  }

  // Client options as named values; their text and the values' storage
  // live until the call returns.
  std::vector<PJRT_NamedValue> named(create_options.size());
  std::vector<OptionValue> values;
  values.reserve(create_options.size());
  for (size_t i = 0; i < create_options.size(); ++i) {
    const auto& [key, text] = create_options[i];
    values.push_back(ParseOptionValue(text));
    PJRT_NamedValue& value = named[i];
    value.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    value.name = key.c_str();
    value.name_size = key.size();
    value.value_size = 1;
    if (const auto* flag = std::get_if<bool>(&values.back())) {
      value.type = PJRT_NamedValue_kBool;
      value.bool_value = *flag;
    } else if (const auto* number = std::get_if<int64_t>(&values.back())) {
      value.type = PJRT_NamedValue_kInt64;
      value.int64_value = *number;
    } else if (const auto* real = std::get_if<double>(&values.back())) {
      value.type = PJRT_NamedValue_kFloat;
      value.float_value = static_cast<float>(*real);
    } else {
      value.type = PJRT_NamedValue_kString;
      value.string_value = text.c_str();
      value.value_size = text.size();
    }
  }
  PJRT_Client_Create_Args create{};
  create.struct_size = PJRT_Client_Create_Args_STRUCT_SIZE;
  create.create_options = named.data();
  create.num_options = named.size();
  HLOCHECK_PJRT(api, api->PJRT_Client_Create(&create), "creating a PJRT client");
  client->client_ = create.client;

  PJRT_Client_PlatformName_Args name{};
  name.struct_size = PJRT_Client_PlatformName_Args_STRUCT_SIZE;
  name.client = client->client_;
  HLOCHECK_PJRT(api, api->PJRT_Client_PlatformName(&name), "reading the platform name");
  info.platform_name.assign(name.platform_name, name.platform_name_size);
  PJRT_Client_PlatformVersion_Args version{};
  version.struct_size = PJRT_Client_PlatformVersion_Args_STRUCT_SIZE;
  version.client = client->client_;
  HLOCHECK_PJRT(api, api->PJRT_Client_PlatformVersion(&version), "reading the platform version");
  info.platform_version.assign(version.platform_version, version.platform_version_size);

  PJRT_Client_AddressableDevices_Args devices{};
  devices.struct_size = PJRT_Client_AddressableDevices_Args_STRUCT_SIZE;
  devices.client = client->client_;
  HLOCHECK_PJRT(api, api->PJRT_Client_AddressableDevices(&devices), "listing the devices");
  if (devices.num_addressable_devices == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(plugin_path, ": the client has no addressable device"));
  }
  client->device_ = devices.addressable_devices[0];
  return client;
}

Client::~Client() {
  if (client_ == nullptr) return;
  PJRT_Client_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE;
  destroy.client = client_;
  (void)ToStatus(api_, api_->PJRT_Client_Destroy(&destroy), "destroying the client");
}

Executable::~Executable() {
  PJRT_LoadedExecutable_Destroy_Args destroy{};
  destroy.struct_size = PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE;
  destroy.executable = executable_;
  (void)ToStatus(api_, api_->PJRT_LoadedExecutable_Destroy(&destroy), "destroying an executable");
}

absl::StatusOr<std::unique_ptr<Executable>> Client::Compile(std::string_view module_text,
                                                            const std::string& compile_options) {
  std::string code(module_text);
  static constexpr char kFormat[] = "mlir";
  PJRT_Program program{};
  program.struct_size = PJRT_Program_STRUCT_SIZE;
  program.code = code.data();
  program.code_size = code.size();
  program.format = kFormat;
  program.format_size = sizeof(kFormat) - 1;
  PJRT_Client_Compile_Args compile{};
  compile.struct_size = PJRT_Client_Compile_Args_STRUCT_SIZE;
  compile.client = client_;
  compile.program = &program;
  compile.compile_options = compile_options.data();
  compile.compile_options_size = compile_options.size();
  HLOCHECK_PJRT(api_, api_->PJRT_Client_Compile(&compile), "compile");
  auto executable = std::make_unique<Executable>(api_, compile.executable, 0);

  PJRT_LoadedExecutable_GetExecutable_Args get{};
  get.struct_size = PJRT_LoadedExecutable_GetExecutable_Args_STRUCT_SIZE;
  get.loaded_executable = compile.executable;
  HLOCHECK_PJRT(api_, api_->PJRT_LoadedExecutable_GetExecutable(&get), "compile");
  PJRT_Executable_NumOutputs_Args outputs{};
  outputs.struct_size = PJRT_Executable_NumOutputs_Args_STRUCT_SIZE;
  outputs.executable = get.executable;
  absl::Status counted =
      ToStatus(api_, api_->PJRT_Executable_NumOutputs(&outputs), "counting the outputs");
  PJRT_Executable_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Executable_Destroy_Args_STRUCT_SIZE;
  destroy.executable = get.executable;
  counted.Update(ToStatus(api_, api_->PJRT_Executable_Destroy(&destroy), "compile"));
  HLOCHECK_RETURN_IF_ERROR(counted);
  executable->num_outputs_ = outputs.num_outputs;
  return executable;
}

absl::StatusOr<std::vector<Tensor>> Client::Execute(Executable& executable,
                                                    std::span<const Tensor> inputs,
                                                    std::span<const TensorType> result_types) {
  Buffers arguments(api_);
  for (const Tensor& input : inputs) {
    std::optional<PJRT_Buffer_Type> type = BufferType(input.element_type());
    if (!type) {
      return absl::UnimplementedError(
          absl::StrCat("PJRT has no buffer type for ", std::string(Name(input.element_type()))));
    }
    // One element per byte for the sub-byte types, as jax hands them over
    // (ml_dtypes); the plugin packs them for the device.
    PJRT_Client_BufferFromHostBuffer_Args transfer{};
    transfer.struct_size = PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE;
    transfer.client = client_;
    transfer.data = input.raw();
    transfer.type = *type;
    transfer.dims = input.shape().data();
    transfer.num_dims = input.shape().size();
    transfer.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    transfer.device = device_;
    HLOCHECK_PJRT(api_, api_->PJRT_Client_BufferFromHostBuffer(&transfer), "copying an input");
    arguments.list().push_back(transfer.buffer);
    HLOCHECK_RETURN_IF_ERROR(AwaitEvent(api_, transfer.done_with_host_buffer, "copying an input"));
  }
  if (executable.num_outputs() != result_types.size()) {
    return absl::InternalError(absl::StrCat("the executable has ", executable.num_outputs(),
                                            " outputs, the case ", result_types.size(),
                                            " results"));
  }
  Buffers outputs(api_);
  outputs.list().assign(result_types.size(), nullptr);
  PJRT_Buffer* const* argument_list = arguments.list().data();
  PJRT_Buffer** output_list = outputs.list().data();
  PJRT_Event* complete = nullptr;
  PJRT_ExecuteOptions options{};
  options.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  PJRT_LoadedExecutable_Execute_Args execute{};
  execute.struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  execute.executable = executable.get();
  execute.options = &options;
  execute.argument_lists = &argument_list;
  execute.num_devices = 1;
  execute.num_args = inputs.size();
  execute.output_lists = &output_list;
  execute.device_complete_events = &complete;
  HLOCHECK_PJRT(api_, api_->PJRT_LoadedExecutable_Execute(&execute), "execute");
  HLOCHECK_RETURN_IF_ERROR(AwaitEvent(api_, complete, "execute"));

  std::vector<Tensor> results;
  results.reserve(result_types.size());
  for (size_t i = 0; i < result_types.size(); ++i) {
    PJRT_Buffer* buffer = outputs.list()[i];
    const TensorType& expected = result_types[i];
    PJRT_Buffer_ElementType_Args element{};
    element.struct_size = PJRT_Buffer_ElementType_Args_STRUCT_SIZE;
    element.buffer = buffer;
    HLOCHECK_PJRT(api_, api_->PJRT_Buffer_ElementType(&element), "reading an output's type");
    PJRT_Buffer_Dimensions_Args dimensions{};
    dimensions.struct_size = PJRT_Buffer_Dimensions_Args_STRUCT_SIZE;
    dimensions.buffer = buffer;
    HLOCHECK_PJRT(api_, api_->PJRT_Buffer_Dimensions(&dimensions), "reading an output's shape");
    Shape shape(dimensions.dims, dimensions.dims + dimensions.num_dims);
    if (BufferType(expected.element_type) != element.type || shape != expected.shape) {
      return absl::InternalError(absl::StrCat(
          "output ", i, " has PJRT type ", static_cast<int>(element.type), " and shape [",
          ShapeToString(shape, ","), "], expected ", expected.ToString()));
    }
    Tensor result(TensorType(expected.shape, expected.element_type));
    PJRT_Buffer_ToHostBuffer_Args copy{};
    copy.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
    copy.src = buffer;
    copy.dst = nullptr;
    HLOCHECK_PJRT(api_, api_->PJRT_Buffer_ToHostBuffer(&copy), "sizing an output");
    if (copy.dst_size != result.bytes().size()) {
      return absl::InternalError(absl::StrCat("output ", i, " is ", copy.dst_size,
                                              " bytes on the host, expected ",
                                              result.bytes().size(), " for ", expected.ToString()));
    }
    copy.dst = result.raw();
    copy.event = nullptr;
    HLOCHECK_PJRT(api_, api_->PJRT_Buffer_ToHostBuffer(&copy), "copying an output");
    HLOCHECK_RETURN_IF_ERROR(AwaitEvent(api_, copy.event, "copying an output"));
    NormalizeSubByteElements(result);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace hlocheck::pjrt
