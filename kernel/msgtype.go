package kernel

// A MsgType is the msg_type of a Jupyter message header (messaging protocol 5.3).
type MsgType string

// Shell channel: requests from the client and the kernel's replies.
const (
	MsgExecuteRequest    MsgType = "execute_request"
	MsgExecuteReply      MsgType = "execute_reply"
	MsgKernelInfoRequest MsgType = "kernel_info_request"
	MsgKernelInfoReply   MsgType = "kernel_info_reply"
	MsgCompleteRequest   MsgType = "complete_request"
	MsgCompleteReply     MsgType = "complete_reply"
	MsgInspectRequest    MsgType = "inspect_request"
	MsgInspectReply      MsgType = "inspect_reply"
	MsgIsCompleteRequest MsgType = "is_complete_request"
	MsgIsCompleteReply   MsgType = "is_complete_reply"
	MsgHistoryRequest    MsgType = "history_request"
	MsgHistoryReply      MsgType = "history_reply"
	MsgCommInfoRequest   MsgType = "comm_info_request"
	MsgCommInfoReply     MsgType = "comm_info_reply"
)

// Comm messages travel both ways: on shell from the client, on iopub from the kernel.
const (
	MsgCommOpen  MsgType = "comm_open"
	MsgCommMsg   MsgType = "comm_msg"
	MsgCommClose MsgType = "comm_close"
)

// Control channel: served on its own goroutine, so they work while a cell runs.
const (
	MsgShutdownRequest  MsgType = "shutdown_request"
	MsgShutdownReply    MsgType = "shutdown_reply"
	MsgInterruptRequest MsgType = "interrupt_request"
	MsgInterruptReply   MsgType = "interrupt_reply"
)

// IOPub channel: what the kernel broadcasts while it works.
const (
	MsgStatus            MsgType = "status"
	MsgExecuteInput      MsgType = "execute_input"
	MsgStream            MsgType = "stream"
	MsgDisplayData       MsgType = "display_data"
	MsgUpdateDisplayData MsgType = "update_display_data"
	MsgExecuteResult     MsgType = "execute_result"
	MsgError             MsgType = "error"
	MsgClearOutput       MsgType = "clear_output"
)

// Stdin channel: the kernel asks the client for a line of input.
const (
	MsgInputRequest MsgType = "input_request"
	MsgInputReply   MsgType = "input_reply"
)

// ProtocolVersion is the messaging protocol version this kernel speaks.
const ProtocolVersion = "5.3"
