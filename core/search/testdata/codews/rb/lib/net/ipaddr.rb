class IPAddr
  # zone_id returns the zone of an IPv6 link local address (fe80::1%eth0),
  # nil for any other address.
  def zone_id
    raise InvalidAddressError, "zone_id is for IPv6 link local addresses" unless ipv6?
    @zone_id
  end

  # zone_id= sets the zone of an IPv6 link local address.
  def zone_id=(zid)
    raise InvalidAddressError, "not an IPv6 link local address" unless link_local?
    @zone_id = zid
  end
end
