module DNS
  class IPv6
    # An IPv6 address with a zone: fe80::1%eth0.
    Regex_LinkLocal = /\A(fe80:[0-9A-Fa-f:]*)%([0-9A-Za-z]+)\z/

    def self.create(text)
      return new(text) if Regex_LinkLocal =~ text
      raise ArgumentError, "not an IPv6 address: #{text}"
    end
  end
end
