import { ChatView } from "../../_components/chat/chat-view";

export default async function SessionPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ item?: string | string[] }> }) {
  const { id } = await params;
  const { item } = await searchParams;
  // `?item=<itemId>`: open at that message (a search result), highlighted.
  return <ChatView key={id} id={id} item={typeof item === "string" && item ? item : null} />;
}
