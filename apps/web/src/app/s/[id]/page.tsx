import { ChatView } from "../../_components/chat/chat-view";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChatView key={id} id={id} />;
}
